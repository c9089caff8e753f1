import PureVisionKernels
import Testing

/// The generated AVX2/FMA GEMM behind ``Conv2DKernel`` (`generatesMachineCode: true`) against `Reference.conv2D`:
/// row counts around the 6-row tile, K around the 4-step unroll and beyond one L2 panel group, N with and without
/// the 8-wide panel; its in-register epilogues against the same code's output followed by the reference operators.
@Suite(.enabled(if: GeneratedCode.runs, GeneratedCode.skipComment))
struct Conv2DMachineCodeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var geometry: Conv2DGeometry
        var hasBias: Bool
        var clamp: ClampRange
        var testDescription: String {
            let g = geometry
            return "n\(g.batch) \(g.inputHeight)x\(g.inputWidth)x\(g.inputChannels)->\(g.outputChannels)"
                + " k\(g.window.kernelHeight)x\(g.window.kernelWidth) s\(g.window.strideHeight) p\(g.window.paddingTop),\(g.window.paddingLeft)"
                + " bias=\(hasBias) clamp\(clamp)"
        }
    }

    static let cases: [Case] = {
        var cases: [Case] = []
        let rowCounts = [1, 5, 6, 7, 13, 97]
        let depths = [1, 3, 27, 75, 257]
        let widths = [8, 16, 24, 40, 264]
        // 1×1 direct, M = height · width: every M with every N, and every K with every N.
        for (index, m) in rowCounts.enumerated() {
            for (column, n) in widths.enumerated() {
                cases.append(
                    Case(
                        geometry: Conv2DTests.geometry(
                            height: 1, width: m, inputChannels: depths[(index + column) % depths.count],
                            outputChannels: n, kernel: (1, 1)),
                        hasBias: (index + column) % 2 == 0, clamp: column % 2 == 0 ? .none : .relu6))
            }
        }
        for (index, k) in depths.enumerated() {
            for (column, n) in widths.enumerated() {
                cases.append(
                    Case(
                        geometry: Conv2DTests.geometry(
                            batch: 1 + index % 2, height: 7, width: 7, inputChannels: k, outputChannels: n,
                            kernel: (1, 1)),
                        hasBias: true, clamp: (index + column) % 2 == 0 ? .relu6 : .none))
            }
        }
        // K past one 192 KiB group of panels (two panels per group, then one), N with the narrow panel.
        cases.append(
            Case(
                geometry: Conv2DTests.geometry(
                    height: 1, width: 13, inputChannels: 1152, outputChannels: 264,
                    kernel: (1, 1)),
                hasBias: true, clamp: .relu6))
        cases.append(
            Case(
                geometry: Conv2DTests.geometry(
                    height: 1, width: 7, inputChannels: 3001, outputChannels: 40,
                    kernel: (1, 1)),
                hasBias: true, clamp: .none))
        // Output channels not a multiple of 8: each row's last vector stored in pieces.
        for (index, n) in [2, 6, 12, 28, 36, 108].enumerated() {
            cases.append(
                Case(
                    geometry: Conv2DTests.geometry(
                        batch: 1 + index % 2, height: 9, width: 3 + 11 * index, inputChannels: depths[index % 5],
                        outputChannels: n, kernel: (1, 1)),
                    hasBias: index % 2 == 0, clamp: index % 3 == 0 ? .relu6 : .none))
            cases.append(
                Case(
                    geometry: Conv2DTests.geometry(
                        height: 9, width: 20, inputChannels: 3, outputChannels: n, kernel: (3, 3), stride: (2, 2),
                        padding: (0, 1, 0, 1)),
                    hasBias: true, clamp: .relu))
        }
        // N whose AVX-512 panels end in a 32-column panel with zero columns past N (24 + 32j columns left after
        // rounding to 8), fully, partly (20, 54) and with a bias.
        for (index, n) in [20, 54, 56, 88].enumerated() {
            cases.append(
                Case(
                    geometry: Conv2DTests.geometry(
                        batch: 1, height: 5, width: 7 + 6 * index, inputChannels: depths[(index + 2) % 5],
                        outputChannels: n, kernel: (1, 1)),
                    hasBias: index % 2 == 1, clamp: index == 2 ? .relu6 : .none))
        }
        // k×k through im2col: 3×3 and 5×5, stride 2, TFLite SAME padding, batch 2 (K = 27 and 75 with 3 inputs).
        for (kernel, padding) in [(3, (0, 1, 0, 1)), (3, (1, 1, 1, 1)), (5, (1, 2, 1, 2))] {
            for (cin, cout) in [(3, 16), (3, 24), (5, 40), (16, 8)] {
                cases.append(
                    Case(
                        geometry: Conv2DTests.geometry(
                            batch: 2, height: 11, width: 9, inputChannels: cin, outputChannels: cout,
                            kernel: (kernel, kernel), stride: (2, 2), padding: padding),
                        hasBias: cout % 3 != 0, clamp: cout == 24 ? .relu6 : .none))
            }
        }
        return cases
    }()

    /// k×k and strided convolutions wide enough (≥ 6 interior output columns) for the code that reads receptive
    /// fields from the input in place, with the border pixels gathered: SAME padding on one side or both, VALID,
    /// 1×1 stride 2, 5×5, non-square, batch 2, epilogue-free row lengths around the tile.
    static let inPlaceCases: [Case] = {
        var cases: [Case] = []
        let shapes: [(kernel: (Int, Int), stride: (Int, Int), padding: (Int, Int, Int, Int), width: Int)] = [
            ((3, 3), (2, 2), (0, 1, 0, 1), 30),
            ((3, 3), (1, 1), (1, 1, 1, 1), 13),
            ((3, 3), (1, 1), (0, 0, 0, 0), 9),
            ((5, 5), (2, 2), (1, 2, 1, 2), 27),
            ((1, 1), (2, 2), (0, 0, 0, 0), 23),
            ((2, 3), (1, 2), (0, 1, 1, 1), 25),
        ]
        for (index, s) in shapes.enumerated() {
            for (cin, cout) in [(3, 16), (3, 24), (8, 40)] {
                cases.append(
                    Case(
                        geometry: Conv2DTests.geometry(
                            batch: 1 + index % 2, height: 7 + index, width: s.width, inputChannels: cin,
                            outputChannels: cout, kernel: s.kernel, stride: s.stride, padding: s.padding),
                        hasBias: (index + cin) % 2 == 0, clamp: cout == 24 ? .relu6 : .none))
            }
        }
        return cases
    }()

    @Test(arguments: inPlaceCases)
    func inPlaceMatchesReference(_ c: Case) {
        let kernel = Conv2DKernel(
            geometry: c.geometry,
            filter: [Float](
                repeating: 0,
                count: c.geometry.outputChannels
                    * c.geometry.window.kernelHeight * c.geometry.window.kernelWidth * c.geometry.inputChannels),
            bias: nil, clamp: .none, generatesMachineCode: true)
        #expect(kernel.readsInputInPlace)
        generatedMatchesReference(c)
    }

    /// Every case of the CBLAS kernel's suite (dilation, padding past the kernel's reach, 1×1 strided and padded,
    /// many blocks) through generated code.
    @Test(arguments: Conv2DTests.cases)
    func conv2DSuiteCasesMatchReference(_ c: Conv2DTests.Case) {
        generatedMatchesReference(Case(geometry: c.geometry, hasBias: c.hasBias, clamp: c.clamp))
    }

    @Test(arguments: cases)
    func generatedMatchesReference(_ c: Case) {
        let g = c.geometry
        var random = SplitMixSource(seed: stableSeed(g) + 11)
        let input = random.floats(g.batch * g.inputHeight * g.inputWidth * g.inputChannels)
        let filter = random.floats(g.outputChannels * g.window.kernelHeight * g.window.kernelWidth * g.inputChannels)
        let bias = c.hasBias ? random.floats(g.outputChannels) : nil
        let outputCount = g.batch * g.outputHeight * g.outputWidth * g.outputChannels
        var expected = [Float](repeating: .nan, count: outputCount)
        expected.withUnsafeMutableBufferPointer { out in
            guard let pointer = out.baseAddress else { return }
            Reference.conv2D(
                geometry: g, input: input, filter: filter, bias: bias, output: pointer, clamp: c.clamp,
                arithmetic: .xnnpack)
        }
        for pool in testPools {
            for instructions in GeneratedCode.instructionSets {
                generatedMatchesReference(
                    c, input: input, filter: filter, bias: bias, expected: expected, pool: pool,
                    instructions: instructions)
            }
        }
    }

    private func generatedMatchesReference(
        _ c: Case, input: [Float], filter: [Float], bias: [Float]?, expected: [Float], pool: ThreadPool,
        instructions: GeneratedInstructionSet
    ) {
        let g = c.geometry
        let outputCount = expected.count
        let kernel = Conv2DKernel(
            geometry: g, filter: filter, bias: bias, clamp: c.clamp, threadCount: pool.threadCount,
            generatesMachineCode: true, instructions: instructions)
        #expect(kernel.generatedInstructions == instructions)
        if g.readsWholeImageAsPatch && g.outputChannels > 1000 {
            // 2 · 512 · 1434 multiply-adds on two output rows: shared between threads by columns, the input read in
            // place.
            #expect(kernel.cutsByColumns == (pool.threadCount > 1))
            #expect(kernel.scratchFloatCount == 0)
        }
        let actual = OutputEpilogueTests.run(count: outputCount, scratch: kernel.scratchFloatCount, residual: nil) {
            y, _, scratch in
            kernel.run(input: input, output: y, scratch: scratch, pool: pool)
        }
        // Bit for bit: the code starts at the bias and fuses each product in k order, as the twin does.
        expectBitIdentical(actual, expected, "\(c) threads=\(pool.threadCount) \(instructions)")
        // The same kernel taking its bias with the run (prepared without it; a decoy bias runs first).
        let runtime = Conv2DKernel(
            geometry: g, filter: filter, bias: nil, clamp: c.clamp, threadCount: pool.threadCount,
            generatesMachineCode: true, biasAtRunTime: true, instructions: instructions)
        #expect(runtime.takesBiasAtRunTime && runtime.runBiasFloatCount >= g.outputChannels)
        var runBias = [Float](repeating: 0, count: runtime.runBiasFloatCount)
        for (index, value) in (bias ?? []).enumerated() { runBias[index] = value }
        let decoy = [Float](repeating: 1e6, count: runtime.runBiasFloatCount)
        let withRunBias = OutputEpilogueTests.run(
            count: outputCount, scratch: runtime.scratchFloatCount, residual: nil
        ) { y, _, scratch in
            runtime.run(input: input, output: y, bias: decoy, scratch: scratch, pool: pool)
            runtime.run(input: input, output: y, bias: runBias, scratch: scratch, pool: pool)
        }
        expectBitIdentical(withRunBias, expected, "\(c) threads=\(pool.threadCount), bias at run time")
    }

    enum Chain: String, CaseIterable, Sendable {
        case add, prelu, addPrelu, preluAdd, relu6, addRelu6Prelu, preluClamp, paddedAdd, addPaddedAfterPrelu
        case padded8AddPrelu, padded16Add, padded24AddRelu
    }

    /// The chain's steps and how many of them the generated code applies.
    static func steps(_ chain: Chain, alpha: [Float]) -> (steps: [OutputEpilogue.Step], generated: Int) {
        let half = alpha.count / 2
        return switch chain {
        case .add: ([.addResidual(clamp: .none)], 1)
        case .prelu: ([.prelu(alpha: alpha)], 1)
        case .addPrelu: ([.addResidual(clamp: .none), .prelu(alpha: alpha)], 2)
        case .preluAdd: ([.prelu(alpha: alpha), .addResidual(clamp: .relu)], 2)
        case .relu6: ([.clamp(.relu6)], 1)
        case .addRelu6Prelu: ([.addResidual(clamp: .relu6), .prelu(alpha: alpha), .clamp(.reluMinus1To1)], 3)
        case .preluClamp: ([.prelu(alpha: alpha), .clamp(.relu), .prelu(alpha: alpha.reversed())], 3)
        // Residuals padded from a channel count inside a vector: that vector loaded under a mask.
        case .paddedAdd: ([.addResidual(clamp: .relu, residualChannels: half), .prelu(alpha: alpha)], 2)
        case .addPaddedAfterPrelu: ([.prelu(alpha: alpha), .addResidual(clamp: .none, residualChannels: half)], 2)
        // Residuals padded to whole vectors: half a 16-wide panel, one panel, a panel and a half.
        case .padded8AddPrelu: ([.addResidual(clamp: .relu6, residualChannels: 8), .prelu(alpha: alpha)], 2)
        case .padded16Add: ([.addResidual(clamp: .none, residualChannels: 16)], 1)
        case .padded24AddRelu: ([.addResidual(clamp: .relu, residualChannels: 24)], 1)
        }
    }

    /// The convolutions the epilogue chains run on.
    enum TensorShape: String, CaseIterable, Sendable {
        /// 1×1 direct, 97 rows, N = 40: two wide panels and the narrow one.
        case direct
        /// 3×3 stride 2, N = 24: interior pixels read in place.
        case spatial
        /// The same with N = 28: each row's last vector stored in pieces, the epilogue in registers as well.
        case oddChannels
        /// 1×1 direct, 12 rows, N = 203 (13 panels, the last stored in pieces): more channels than rows, so that
        /// several threads cut it by columns.
        case wide
    }

    /// Each chain on each shape: the fused result equals the same generated convolution without the epilogue
    /// followed by the reference operators, to the last bit, for every pool.

    @Test(arguments: Chain.allCases, TensorShape.allCases)
    func fusedEpilogueEqualsSeparatePasses(_ chain: Chain, shape: TensorShape) {
        let spatial = shape == .spatial || shape == .oddChannels
        let g =
            switch shape {
            case .spatial, .oddChannels:
                Conv2DTests.geometry(
                    batch: 2, height: 9, width: 31, inputChannels: 5, outputChannels: shape == .spatial ? 24 : 28,
                    kernel: (3, 3), stride: (2, 2), padding: (1, 1, 1, 1))
            case .direct:
                Conv2DTests.geometry(height: 1, width: 97, inputChannels: 27, outputChannels: 40, kernel: (1, 1))
            case .wide:
                Conv2DTests.geometry(height: 3, width: 4, inputChannels: 96, outputChannels: 203, kernel: (1, 1))
            }
        let n = g.outputChannels
        var random = SplitMixSource(seed: UInt64(chain.rawValue.count * 977 + n))
        let input = random.floats(g.batch * g.inputHeight * g.inputWidth * g.inputChannels)
        let filter = random.floats(n * g.window.kernelHeight * g.window.kernelWidth * g.inputChannels)
        let bias = random.floats(n)
        // Slopes of both signs, and zero.
        let alpha = (0..<n).map { $0 % 5 == 4 ? Float(0) : random.floats(1)[0] }
        let (steps, generatedCount) = Self.steps(chain, alpha: alpha)
        let epilogue = OutputEpilogue(steps)
        let pixels = g.batch * g.outputHeight * g.outputWidth
        let residual = random.floats(pixels * epilogue.residualChannels(outputChannels: n))
        let outputShape = [g.batch, g.outputHeight, g.outputWidth, n]
        for pool in testPools {
            let kernel = Conv2DKernel(
                geometry: g, filter: filter, bias: bias, clamp: .relu6, threadCount: pool.threadCount,
                generatesMachineCode: true)
            let fusedKernel = kernel.withEpilogue(epilogue)
            #expect(fusedKernel.usesGeneratedCode)
            #expect(fusedKernel.readsInputInPlace == spatial)
            #expect(fusedKernel.generatedEpilogueStepCount == generatedCount)
            if shape == .wide {
                // 12 · 203 · 96 multiply-adds: enough to share between 2 or 3 threads, not 16.
                let shared = pool.threadCount == 2 || pool.threadCount == 3
                #expect(kernel.cutsByColumns == shared)
                #expect(fusedKernel.cutsByColumns == (shared && generatedCount == steps.count))
            }
            let scratch = kernel.scratchFloatCount
            let unfused = OutputEpilogueTests.run(count: pixels * n, scratch: scratch, residual: nil) { y, r, s in
                kernel.run(input: input, output: y, residual: r, scratch: s, pool: pool)
            }
            let fused = OutputEpilogueTests.run(count: pixels * n, scratch: scratch, residual: residual) { y, r, s in
                fusedKernel.run(input: input, output: y, residual: r, scratch: s, pool: pool)
            }
            let expected = OutputEpilogueTests.referenceSteps(
                steps, values: unfused, residual: residual, shape: outputShape)
            let mismatch = zip(fused, expected).enumerated().first { $0.element.0 != $0.element.1 }
            #expect(
                mismatch == nil,
                "\(chain) \(shape) threads=\(pool.threadCount): element \(mismatch.map { "\($0)" } ?? "")")
        }
    }

    /// Generated code only when asked for; any channel count.
    @Test func codeGenerationIsOptIn() {
        for channels in [12, 16] {
            let g = Conv2DTests.geometry(
                height: 3, width: 3, inputChannels: 4, outputChannels: channels, kernel: (1, 1))
            let filter = [Float](repeating: 0.5, count: 4 * channels)
            #expect(!Conv2DKernel(geometry: g, filter: filter, bias: nil, clamp: .none).usesGeneratedCode)
            let kernel = Conv2DKernel(geometry: g, filter: filter, bias: nil, clamp: .none, generatesMachineCode: true)
            #expect(kernel.usesGeneratedCode)
        }
    }
}
