import PureVisionKernels
import Testing

/// `XNNPACKAddKernel` (the SSE2 step on x86-64 and the portable 16-lane step) against its reference twin,
/// `Quantized.add` with XNNPACK's terms, bit for bit: counts with and without a tail after the last 16-element step,
/// int8 and uint8, extreme zero points, scale ratios at both ends of XNNPACK's range (shifts 13 and 30), narrowed
/// output ranges, 1–3 threads; and the generated AVX-512 steps where the CPU has them.
@Suite struct XNNPACKAddKernelTests {
    struct Scales: Sendable, CustomTestStringConvertible {
        var lhs: Float, rhs: Float, output: Float
        var testDescription: String { "\(lhs) + \(rhs) → \(output)" }
    }

    static let scales = [
        Scales(lhs: 0.031, rhs: 0.0173, output: 0.041),
        // Ratios just below 2^8 and at 2^-10: the shift's two ends.
        Scales(lhs: 255.9, rhs: 0.5, output: 1.0),
        Scales(lhs: 0x1p-10, rhs: 0x1p-10, output: 1.0),
        Scales(lhs: 0.5, rhs: 3.7, output: 0.02),
    ]

    static func check<T: QuantizedElement>(
        _: T.Type, scales s: Scales, count: Int, threads: Int, portable: Bool, seed: UInt64,
        generatesMachineCode: Bool = false
    ) throws {
        var random = Random(state: seed)
        let lhs = (0..<count).map { _ in T(truncatingIfNeeded: random.next()) }
        let rhs = (0..<count).map { _ in T(truncatingIfNeeded: random.next()) }
        let (low, high) = (Int32(T.min), Int32(T.max))
        for (lhsZero, rhsZero, outputZero, range) in [
            (low, high, low + 3, QuantizedRange(lower: low, upper: high)),
            (high, low, high - 1, QuantizedRange(lower: low + 7, upper: high - 11)),
            ((low + high) / 2, low + 1, 0, QuantizedRange(lower: low, upper: high)),
        ] {
            var parameters = QuantizedAddParameters(
                lhsScale: s.lhs, lhsZeroPoint: lhsZero, rhsScale: s.rhs, rhsZeroPoint: rhsZero, outputScale: s.output,
                outputZeroPoint: outputZero, range: range)
            let terms = try #require(
                XNNPACKAddTerms(
                    lhsScale: s.lhs, lhsZeroPoint: lhsZero, rhsScale: s.rhs, rhsZeroPoint: rhsZero,
                    outputScale: s.output))
            parameters.xnnpack = terms
            var wanted = [T](repeating: 0, count: count)
            Quantized.add(
                lhs: lhs, rhs: rhs, output: &wanted,
                plan: BroadcastPlan(lhsShape: [count], rhsShape: [count], outputShape: [count]),
                parameters: parameters, subtract: false)
            let kernel = try #require(
                XNNPACKAddKernel(
                    count: count, terms: terms, zeroPoint: outputZero, range: range, threadCount: threads,
                    portable: portable, generatesMachineCode: generatesMachineCode))
            try #require(kernel.usesGeneratedCode == generatesMachineCode)
            var output = [T](repeating: 0, count: count)
            kernel.run(lhs: lhs, rhs: rhs, output: &output, pool: ThreadPool(threadCount: threads))
            #expect(
                output == wanted,
                "\(T.self) count \(count) zero points \(lhsZero) \(rhsZero) \(outputZero) range \(range) shift \(terms.shift) generated \(generatesMachineCode)"
            )
        }
    }

    @Test(arguments: scales, [false, true])
    func matchesTheReference(scales: Scales, portable: Bool) throws {
        for (index, (count, threads)) in [(0, 1), (1, 1), (15, 1), (16, 2), (47, 3), (1000, 1), (40_009, 3)]
            .enumerated()
        {
            try Self.check(
                Int8.self, scales: scales, count: count, threads: threads, portable: portable, seed: UInt64(index))
            try Self.check(
                UInt8.self, scales: scales, count: count, threads: threads, portable: portable, seed: UInt64(index + 50)
            )
        }
    }

    /// The generated AVX-512 steps (64 elements) where the CPU has them, with counts that leave 16-element steps
    /// and a scalar tail after them, and chunks split over threads.
    @Test(.enabled(if: HostCPU.supportsGeneratedAVX512, "SKIPPED: no AVX-512 on this CPU"), arguments: scales)
    func generatedStepsMatchTheReference(scales: Scales) throws {
        for (index, (count, threads)) in [(63, 1), (64, 1), (65, 2), (64 * 3 + 47, 1), (40_009, 3), (100_000, 2)]
            .enumerated()
        {
            try Self.check(
                Int8.self, scales: scales, count: count, threads: threads, portable: false, seed: UInt64(index + 100),
                generatesMachineCode: true)
            try Self.check(
                UInt8.self, scales: scales, count: count, threads: threads, portable: false,
                seed: UInt64(index + 150), generatesMachineCode: true)
        }
    }

    @Test func refusesTermsXNNPACKNeverProduces() throws {
        var terms = try #require(
            XNNPACKAddTerms(lhsScale: 0.1, lhsZeroPoint: 0, rhsScale: 0.2, rhsZeroPoint: 0, outputScale: 0.3))
        let range = QuantizedRange(lower: -128, upper: 127)
        terms.lhsMultiplier = -1
        #expect(XNNPACKAddKernel(count: 16, terms: terms, zeroPoint: 0, range: range, threadCount: 1) == nil)
        terms.lhsMultiplier = 1
        terms.shift = 32
        #expect(XNNPACKAddKernel(count: 16, terms: terms, zeroPoint: 0, range: range, threadCount: 1) == nil)
    }
}
