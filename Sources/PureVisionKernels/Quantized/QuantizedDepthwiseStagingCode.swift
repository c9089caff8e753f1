/// Generated AVX-512 (BW) code for the staging of ``QuantizedDepthwiseConv2DKernel``: two input rows of 8-bit values
/// written as int16 pairs `(first[i] − zeroPoint, second[i] − zeroPoint)`, ``valuesPerStep`` values of each row a step
/// (sign- or zero-extended in one instruction, the zero point subtracted, the two rows interleaved by two `vpermt2w`),
/// where the Swift loop does 8 at a time with SSE2. The staged pairs are the same bit for bit.
final class QuantizedDepthwiseStagingCode: @unchecked Sendable {
    /// Values of each row per step.
    static let valuesPerStep = 32
    /// The code, and its constants: the two interleaving index vectors and the zero point in every int16 lane, 64
    /// bytes each.
    private let code: ExecutableCodeWithConstants

    /// Generates the code, or returns nil without AVX-512 (or when it cannot be mapped). `unsigned`: the values are
    /// uint8 (zero-extended), else int8.
    init?(zeroPoint: Int16, unsigned: Bool) {
        guard HostCPU.supportsGeneratedAVX512 else { return nil }
        let constants = UnsafeMutableRawPointer.allocate(byteCount: 192, alignment: 64)
        let lanes = constants.bindMemory(to: Int16.self, capacity: 96)
        // Output lanes 2i and 2i + 1 of the first half take lane i of each row (index bit 5 picks the second
        // row); the second half, lane 16 + i.
        for i in 0..<16 {
            lanes[2 * i] = Int16(i)
            lanes[2 * i + 1] = Int16(32 + i)
            lanes[32 + 2 * i] = Int16(16 + i)
            lanes[32 + 2 * i + 1] = Int16(48 + i)
            lanes[64 + 2 * i] = zeroPoint
            lanes[64 + 2 * i + 1] = zeroPoint
        }
        var a = X86Assembler()
        let (first, second, spare) = (ZMM(0), ZMM(1), ZMM(2))
        let (lowIndices, highIndices, zero) = (ZMM(4), ZMM(5), ZMM(6))
        a.mov(.rax, Int(bitPattern: constants))
        a.vmovdqu32(lowIndices, Memory(.rax))
        a.vmovdqu32(highIndices, Memory(.rax, 64))
        a.vmovdqu32(zero, Memory(.rax, 128))
        let loop = a.makeLabel()
        a.bind(loop)
        if unsigned {
            a.vpmovzxbw(first, Memory(.rdi))
            a.vpmovzxbw(second, Memory(.rsi))
        } else {
            a.vpmovsxbw(first, Memory(.rdi))
            a.vpmovsxbw(second, Memory(.rsi))
        }
        a.vpsubw(first, first, zero)
        a.vpsubw(second, second, zero)
        a.vmovdqa64(spare, first)
        a.vpermt2w(first, lowIndices, second)
        a.vpermt2w(spare, highIndices, second)
        a.vmovdqu32(Memory(.rdx), first)
        a.vmovdqu32(Memory(.rdx, 64), spare)
        a.add(.rdi, Int32(Self.valuesPerStep))
        a.add(.rsi, Int32(Self.valuesPerStep))
        a.add(.rdx, Int32(4 * Self.valuesPerStep))
        a.dec(.rcx)
        a.jnz(loop)
        a.vzeroupper()
        a.ret()
        guard let code = ExecutableCodeWithConstants(a, constants: constants) else { return nil }
        self.code = code
    }

    /// Stages `steps` (at least 1) steps: `steps · valuesPerStep` values of each row, `4 · valuesPerStep` bytes of
    /// pairs a step at `target`.
    @inline(__always)
    func run(first: UnsafePointer<Int8>, second: UnsafePointer<Int8>, target: UnsafeMutableRawPointer, steps: Int) {
        code.code.entry(Int(bitPattern: first), Int(bitPattern: second), Int(bitPattern: target), steps, 0, 0)
    }
}
