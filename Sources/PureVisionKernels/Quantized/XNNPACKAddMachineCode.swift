/// Generated AVX-512 code for ``XNNPACKAddKernel``: 64 elements a step, each group of 16 widened to int32, multiplied
/// by its input's multiplier (wrapping, as ``XNNPACKAddTerms/apply(_:_:)``), summed with the constant term (bias and
/// rounding), shifted right arithmetically by the terms' shift, offset by the output zero point, clamped and narrowed
/// to bytes: the same arithmetic, lane for lane, as the Swift steps, so the same bytes.
final class XNNPACKAddCode: @unchecked Sendable {
    /// Elements per step.
    static let elementsPerStep = 64
    /// The code, and its constants: the broadcast operands lhs multiplier, rhs multiplier, constant term, zero
    /// point, lower and upper bound.
    private let code: ExecutableCodeWithConstants

    /// Generates the code, one loop for int8 elements and one for uint8 (``run(_:_:_:steps:signed:)`` picks), or
    /// returns nil without AVX-512 or when the code cannot be mapped.
    init?(terms: XNNPACKAddTerms, zeroPoint: Int32, range: QuantizedRange) {
        guard HostCPU.supportsGeneratedAVX512, (1...31).contains(terms.shift) else { return nil }
        let constants = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 64)
        let values: [Int32] = [
            terms.lhsMultiplier, terms.rhsMultiplier, terms.bias &+ (1 &<< (terms.shift &- 1)), zeroPoint,
            range.lower, range.upper,
        ]
        for (index, value) in values.enumerated() {
            constants.storeBytes(of: value, toByteOffset: 4 * index, as: Int32.self)
        }
        var a = X86Assembler()
        a.mov(.rax, Int(bitPattern: constants))
        let unsignedLoop = a.makeLabel()
        a.test(.r8, .r8)
        a.jz(unsignedLoop)
        for signed in [true, false] {
            let loop = a.makeLabel()
            if signed { a.bind(loop) } else { a.bind(unsignedLoop) }
            for group in 0..<4 {
                let (x, y) = (ZMM(2 * group), ZMM(2 * group + 1))
                let offset = Int32(16 * group)
                if signed {
                    a.vpmovsxbd(x, Memory(.rdi, offset))
                    a.vpmovsxbd(y, Memory(.rsi, offset))
                } else {
                    a.vpmovzxbd(x, Memory(.rdi, offset))
                    a.vpmovzxbd(y, Memory(.rsi, offset))
                }
                a.vpmulld(x, x, broadcast: Memory(.rax, 0))
                a.vpmulld(y, y, broadcast: Memory(.rax, 4))
                a.vpaddd(x, x, y)
                a.vpaddd(x, x, broadcast: Memory(.rax, 8))
                a.vpsrad(x, x, UInt8(terms.shift))
                a.vpaddd(x, x, broadcast: Memory(.rax, 12))
                a.vpmaxsd(x, x, broadcast: Memory(.rax, 16))
                a.vpminsd(x, x, broadcast: Memory(.rax, 20))
                // The clamp keeps every lane within the element's range, so its low byte is the result.
                a.vpmovdb(x.ymm, x)
                a.vmovupsLow128(Memory(.rdx, offset), x.ymm)
            }
            a.add(.rdi, Int32(Self.elementsPerStep))
            a.add(.rsi, Int32(Self.elementsPerStep))
            a.add(.rdx, Int32(Self.elementsPerStep))
            a.dec(.rcx)
            a.jnz(signed ? loop : unsignedLoop)
            a.vzeroupper()
            a.ret()
        }
        guard let code = ExecutableCodeWithConstants(a, constants: constants) else { return nil }
        self.code = code
    }

    /// Adds `steps` (at least 1) steps of ``elementsPerStep`` elements, int8 when `signed`, else uint8.
    @inline(__always)
    func run(
        _ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, steps: Int, signed: Bool
    ) {
        code.code.entry(
            Int(bitPattern: lhs), Int(bitPattern: rhs), Int(bitPattern: output), steps, signed ? 1 : 0, 0)
    }
}
