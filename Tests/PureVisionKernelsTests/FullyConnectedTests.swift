import PureVisionKernels
import Testing

struct FullyConnectedTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var batch, inputSize, outputSize: Int
        var hasBias: Bool
        var clamp: ClampRange
        var testDescription: String { "n\(batch) \(inputSize)->\(outputSize) bias=\(hasBias) clamp\(clamp)" }
    }

    static let cases: [Case] = {
        var cases: [Case] = []
        let clamps = [ClampRange.none, .relu, .relu6, .reluMinus1To1]
        var index = 0
        for batch in [1, 2, 3] {
            for (inputSize, outputSize) in [(1, 1), (7, 3), (8, 8), (9, 17), (31, 1), (1, 31), (64, 1001)] {
                cases.append(
                    Case(
                        batch: batch, inputSize: inputSize, outputSize: outputSize,
                        hasBias: index % 2 == 0, clamp: clamps[index % clamps.count]))
                index += 1
            }
        }
        // Enough work to split the output columns over threads.
        cases.append(Case(batch: 1, inputSize: 1280, outputSize: 257, hasBias: true, clamp: .none))
        // A classifier head: sliced into panels of 16 output features, the last slice with a partial panel.
        cases.append(Case(batch: 1, inputSize: 1280, outputSize: 1001, hasBias: true, clamp: .relu6))
        cases.append(Case(batch: 5, inputSize: 300, outputSize: 129, hasBias: false, clamp: .relu))
        return cases
    }()

    /// The reference's output for case `c` in `arithmetic`, and the kernel's on each test pool. The caller's
    /// weights are overwritten after preparation, so the kernel must have copied them.
    static func outputs(
        _ c: Case, arithmetic: Reference.Arithmetic, generatesMachineCode: Bool, microKernel: Bool? = nil
    ) -> (expected: [Float], actual: [(threads: Int, values: [Float])], usesGeneratedCode: Bool) {
        var random = SplitMixSource(seed: UInt64(c.batch * 100_003 + c.inputSize * 101 + c.outputSize))
        let input = random.floats(c.batch * c.inputSize)
        var weights = random.floats(c.outputSize * c.inputSize)
        let bias = c.hasBias ? random.floats(c.outputSize) : nil
        var expected = [Float](repeating: .nan, count: c.batch * c.outputSize)
        expected.withUnsafeMutableBufferPointer { out in
            guard let pointer = out.baseAddress else { return }
            Reference.fullyConnected(
                batch: c.batch, inputSize: c.inputSize, outputSize: c.outputSize, input: input, weights: weights,
                bias: bias, output: pointer, clamp: c.clamp, arithmetic: arithmetic)
        }
        // One kernel per pool, prepared for its thread count (one-row layers are sliced for threads).
        let kernels = testPools.map { pool in
            FullyConnectedKernel(
                batch: c.batch, inputSize: c.inputSize, outputSize: c.outputSize, weights: weights, bias: bias,
                clamp: c.clamp, generatesMachineCode: generatesMachineCode, threadCount: pool.threadCount,
                microKernel: microKernel)
        }
        for index in weights.indices { weights[index] = .nan }
        let actual = zip(testPools, kernels).map { pool, kernel in
            var values = [Float](repeating: .nan, count: c.batch * c.outputSize)
            values.withUnsafeMutableBufferPointer { out in
                guard let pointer = out.baseAddress else { return }
                kernel.run(input: input, output: pointer, pool: pool)
            }
            return (pool.threadCount, values)
        }
        if generatesMachineCode, c.batch == 1, c.inputSize * c.outputSize >= 1 << 18 {
            #expect(kernels.last?.sliceCount ?? 0 > 1, "\(c): a one-row layer this large is sliced for threads")
        }
        return (expected, actual, kernels.allSatisfy(\.usesGeneratedCode))
    }

    /// The CBLAS path against the reference in LiteRT's arithmetic, within float rounding.
    @Test(arguments: cases)
    func kernelMatchesReference(_ c: Case) {
        let (expected, actual, _) = Self.outputs(
            c, arithmetic: .liteRT, generatesMachineCode: false, microKernel: false)
        let tolerance = 1e-5 * Float(c.inputSize).squareRoot()
        for (threads, values) in actual {
            expectNearlyEqual(values, expected, tolerance: tolerance, "\(c) threads=\(threads)")
        }
    }

    /// The Swift micro-kernel path (``PanelGEMM``), on every pool: where the target fuses multiply-adds, equal bit
    /// for bit to the reference in XNNPACK's arithmetic (bias first, one fused multiply-add per input feature, in
    /// order), as the generated code is; elsewhere within float rounding of it.
    @Test(arguments: cases)
    func microKernelMatchesXNNPACKReference(_ c: Case) {
        let (expected, actual, _) = Self.outputs(
            c, arithmetic: .xnnpack, generatesMachineCode: false, microKernel: true)
        let tolerance = 1e-5 * Float(c.inputSize).squareRoot()
        for (threads, values) in actual {
            if SwiftKernelTarget.fusesMultiplyAdd {
                expectBitIdentical(values, expected, "\(c) threads=\(threads)")
            } else {
                expectNearlyEqual(values, expected, tolerance: tolerance, "\(c) threads=\(threads)")
            }
        }
    }

    /// The generated code equals the reference in XNNPACK's arithmetic (bias first, one fused multiply-add per
    /// input feature, in order) bit for bit.
    @Test(.enabled(if: GeneratedCode.runs, GeneratedCode.skipComment), arguments: cases)
    func generatedCodeMatchesXNNPACKReference(_ c: Case) {
        let (expected, actual, generated) = Self.outputs(c, arithmetic: .xnnpack, generatesMachineCode: true)
        #expect(generated)
        for (threads, values) in actual {
            #expect(values.map(\.bitPattern) == expected.map(\.bitPattern), "\(c) threads=\(threads)")
        }
    }

    /// `[[1, 2, 3], [−1, 0, 1]] · [[1, 0, −1], [2, 2, 2]]ᵀ + [0.5, 20]`, hand-computed, then ReLU.
    @Test(arguments: [false, true])
    func handCheckedLayer(optimized: Bool) {
        let input: [Float] = [1, 2, 3, -1, 0, 1]
        let weights: [Float] = [1, 0, -1, 2, 2, 2]
        let bias: [Float] = [0.5, 20]
        var output = [Float](repeating: .nan, count: 4)
        output.withUnsafeMutableBufferPointer { out in
            guard let pointer = out.baseAddress else { return }
            if optimized {
                FullyConnectedKernel(batch: 2, inputSize: 3, outputSize: 2, weights: weights, bias: bias, clamp: .relu)
                    .run(input: input, output: pointer, pool: .serial)
            } else {
                Reference.fullyConnected(
                    batch: 2, inputSize: 3, outputSize: 2, input: input, weights: weights, bias: bias,
                    output: pointer, clamp: .relu)
            }
        }
        // Row 0: 1 − 3 + 0.5 = −1.5 → 0 and 2 + 4 + 6 + 20 = 32. Row 1: −1 − 1 + 0.5 = −1.5 → 0 and −2 + 2 + 20 = 20.
        #expect(output == [0, 32, 0, 20])
    }
}
