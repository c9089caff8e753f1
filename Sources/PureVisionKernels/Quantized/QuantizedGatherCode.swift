/// Generated AVX-512 (BW) code for the VNNI convolution's gather of receptive fields that lie inside the input: for
/// each of `count` output pixels along a row, the kernel's rows (each `span` contiguous bytes: kernel width × input
/// channels) are copied side by side into one row of `rowBytes` (at most 128) bytes, zeros after them. The row is
/// built in one or two zmm registers: each kernel row's bytes that fall in a register are one byte load under a
/// mask, addressed so that they land at their place (bytes outside the mask are not read, so the shifted address
/// never faults), merged into the register the first one zeroed; a store (masked where the row ends inside a
/// register) writes each register. The Swift loop copies the same bytes span by span.
final class QuantizedGatherCode: @unchecked Sendable {
    private let code: ExecutableCode

    /// Generates the code, or returns nil without AVX-512 BW, for rows that do not fit `rowBytes` or more than 128
    /// bytes, when the loads and stores need more than the 7 mask registers, or for displacements beyond 32 bits.
    /// - Parameters:
    ///   - kernelRows: kernel rows per pixel.
    ///   - span: contiguous bytes of one kernel row.
    ///   - rowStride: bytes from one kernel row's first byte to the next's in the input.
    ///   - pixelStride: bytes from one output pixel's first input byte to the next pixel's.
    init?(kernelRows: Int, span: Int, rowStride: Int, pixelStride: Int, rowBytes: Int) {
        let depth = kernelRows * span
        let registers = (rowBytes + 63) / 64
        // Every register holds some of the kernel's bytes (so its first load can zero it).
        guard HostCPU.supportsGeneratedAVX512, kernelRows > 0, span > 0, depth <= rowBytes, rowBytes <= 128,
            depth > 64 * (registers - 1), abs(rowStride) * kernelRows < 1 << 30, abs(pixelStride) < 1 << 30
        else { return nil }
        // The loads: kernel row r's bytes r·span ..< (r + 1)·span of the row, cut at the register boundary.
        var loads: [(register: Int, lanes: Range<Int>, displacement: Int)] = []
        for r in 0..<kernelRows {
            for register in 0..<registers {
                let (first, end) = (max(r * span, 64 * register), min((r + 1) * span, 64 * (register + 1)))
                guard first < end else { continue }
                loads.append(
                    (
                        register, (first - 64 * register)..<(end - 64 * register),
                        r * rowStride - r * span + 64 * register
                    ))
            }
        }
        // Registers the row fills only in part are stored under a mask.
        let lastLanes = rowBytes - 64 * (registers - 1)
        let storeMasks = lastLanes < 64 ? 1 : 0
        guard loads.count + storeMasks <= 7 else { return nil }
        var a = X86Assembler()
        func bits(_ range: Range<Int>) -> Int {
            Int(
                bitPattern: UInt(
                    truncatingIfNeeded: (UInt64.max >> UInt64(64 - range.count)) << UInt64(range.lowerBound)))
        }
        // k1…: the loads' lanes, then the last register's stored lanes.
        for (index, load) in loads.enumerated() {
            a.mov(.rax, bits(load.lanes))
            a.kmovq(OpMask(index + 1), .rax)
        }
        let storeMask = OpMask(loads.count + 1)
        if storeMasks > 0 {
            a.mov(.rax, bits(0..<lastLanes))
            a.kmovq(storeMask, .rax)
        }
        let loop = a.makeLabel()
        a.bind(loop)
        var zeroed = Set<Int>()
        for (index, load) in loads.enumerated() {
            a.vmovdqu8(
                ZMM(load.register), mask: OpMask(index + 1), zeroing: zeroed.insert(load.register).inserted,
                Memory(.rdi, Int32(load.displacement)))
        }
        for register in 0..<registers {
            let target = Memory(.rsi, Int32(64 * register))
            if register == registers - 1 && storeMasks > 0 {
                a.vmovdqu8(target, mask: storeMask, ZMM(register))
            } else {
                a.vmovdqu32(target, ZMM(register))
            }
        }
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
