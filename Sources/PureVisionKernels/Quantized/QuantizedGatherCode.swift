/// Generated AVX-512 (BW) code for the VNNI convolution's gather of receptive fields that lie inside the input: for
/// each of `count` output pixels along a row, the kernel's rows (each `span` contiguous bytes: kernel width × input
/// channels) are copied side by side into one row of `rowBytes` (at most 64) bytes, zeros after them. Each kernel
/// row is one byte load under a mask, addressed so that its bytes land at their place in the register (bytes outside
/// the mask are not read, so the shifted address never faults), merged into the register the first one zeroed; one
/// masked store writes the row. The Swift loop copies the same bytes span by span.
final class QuantizedGatherCode: @unchecked Sendable {
    /// Bytes of one gathered row (at most 64).
    let rowBytes: Int
    private let code: ExecutableCode

    /// Generates the code, or returns nil without AVX-512 BW, for more than 6 kernel rows, rows that do not fit
    /// `rowBytes`, more than 64 bytes, or displacements beyond 32 bits.
    /// - Parameters:
    ///   - kernelRows: kernel rows per pixel (1…6).
    ///   - span: contiguous bytes of one kernel row.
    ///   - rowStride: bytes from one kernel row's first byte to the next's in the input.
    ///   - pixelStride: bytes from one output pixel's first input byte to the next pixel's.
    init?(kernelRows: Int, span: Int, rowStride: Int, pixelStride: Int, rowBytes: Int) {
        guard HostCPU.supportsGeneratedAVX512, (1...6).contains(kernelRows), span > 0,
            kernelRows * span <= rowBytes, rowBytes <= 64,
            abs(rowStride) * kernelRows < 1 << 30, abs(pixelStride) < 1 << 30
        else { return nil }
        self.rowBytes = rowBytes
        var a = X86Assembler()
        // k1…k6: kernel row r's bytes (r · span ..< (r + 1) · span); k7: the row's bytes.
        func bits(_ range: Range<Int>) -> Int {
            Int(
                bitPattern: UInt(
                    truncatingIfNeeded: (UInt64.max >> UInt64(64 - range.count)) << UInt64(range.lowerBound)))
        }
        for r in 0..<kernelRows {
            a.mov(.rax, bits((r * span)..<((r + 1) * span)))
            a.kmovq(OpMask(r + 1), .rax)
        }
        a.mov(.rax, bits(0..<rowBytes))
        a.kmovq(OpMask(7), .rax)
        let row = ZMM(0)
        let loop = a.makeLabel()
        a.bind(loop)
        a.vmovdqu8(row, mask: OpMask(1), zeroing: true, Memory(.rdi))
        for r in 1..<kernelRows {
            a.vmovdqu8(row, mask: OpMask(r + 1), zeroing: false, Memory(.rdi, Int32(r * rowStride - r * span)))
        }
        a.vmovdqu8(Memory(.rsi), mask: OpMask(7), row)
        a.add(.rdi, Int32(pixelStride))
        a.add(.rsi, Int32(rowBytes))
        a.dec(.rdx)
        a.jnz(loop)
        a.vzeroupper()
        a.ret()
        guard let code = try? ExecutableCode(a.finish()) else { return nil }
        self.code = code
    }

    /// Gathers `count` (at least 1) pixels: the first pixel's first kernel row at `source`, rows to `rows`.
    @inline(__always)
    func run(source: UnsafeRawPointer, rows: UnsafeMutableRawPointer, count: Int) {
        code.entry(Int(bitPattern: source), Int(bitPattern: rows), count, 0, 0, 0)
    }
}
