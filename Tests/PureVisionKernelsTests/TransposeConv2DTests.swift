import PureVisionKernels
import Testing

/// `TransposeConv2DKernel` (GEMM + gather) against `Reference.transposeConv2D` on odd shapes, both bias orders,
/// with and without generated code, on 1, 2, 3 and 16 threads.
@Suite struct TransposeConv2DTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let geometry: TransposeConv2DGeometry
        let hasBias: Bool
        let biasOrder: TransposeConv2DGeometry.BiasOrder
        let clamp: ClampRange
        var testDescription: String {
            let g = geometry
            return "\(g.batch)x\(g.inputHeight)x\(g.inputWidth)x\(g.inputChannels)→\(g.outputHeight)x\(g.outputWidth)"
                + "x\(g.outputChannels) k\(g.window.kernelHeight)x\(g.window.kernelWidth) s\(g.window.strideHeight)x\(g.window.strideWidth) "
                + "p\(g.window.paddingTop),\(g.window.paddingLeft) \(biasOrder)\(hasBias ? "" : " no bias")"
        }
    }

    /// The full (unpadded) output extent minus `cut` rows / columns, the padding before being `cut / 2`.
    static func geometry(
        batch: Int = 1, input: (Int, Int, Int), outputChannels: Int, kernel: (Int, Int), stride: (Int, Int),
        cut: (Int, Int) = (0, 0)
    ) -> TransposeConv2DGeometry {
        TransposeConv2DGeometry(
            batch: batch, inputHeight: input.0, inputWidth: input.1, inputChannels: input.2,
            outputHeight: stride.0 * (input.0 - 1) + kernel.0 - cut.0,
            outputWidth: stride.1 * (input.1 - 1) + kernel.1 - cut.1, outputChannels: outputChannels,
            window: Window2D(
                kernelHeight: kernel.0, kernelWidth: kernel.1, strideHeight: stride.0, strideWidth: stride.1,
                paddingTop: cut.0 / 2, paddingLeft: cut.1 / 2))
    }

    static let cases: [Case] = [
        Case(
            geometry: geometry(input: (5, 7, 16), outputChannels: 1, kernel: (2, 2), stride: (2, 2)), hasBias: true,
            biasOrder: .first, clamp: .none),
        Case(
            geometry: geometry(input: (33, 17, 16), outputChannels: 3, kernel: (2, 2), stride: (2, 2)),
            hasBias: true, biasOrder: .first, clamp: .none),
        Case(
            geometry: geometry(input: (4, 5, 3), outputChannels: 5, kernel: (3, 3), stride: (2, 2), cut: (1, 1)),
            hasBias: true, biasOrder: .last, clamp: .none),
        Case(
            geometry: geometry(
                batch: 2, input: (3, 3, 9), outputChannels: 17, kernel: (4, 4), stride: (2, 2),
                cut: (2, 2)), hasBias: true, biasOrder: .first, clamp: .relu),
        Case(
            geometry: geometry(input: (3, 4, 6), outputChannels: 7, kernel: (3, 2), stride: (2, 3), cut: (1, 0)),
            hasBias: false, biasOrder: .last, clamp: .relu6),
        Case(
            geometry: geometry(input: (2, 6, 5), outputChannels: 9, kernel: (5, 3), stride: (3, 1), cut: (2, 2)),
            hasBias: true, biasOrder: .first, clamp: .none),
        Case(
            geometry: geometry(input: (7, 1, 1), outputChannels: 2, kernel: (1, 1), stride: (1, 1)), hasBias: true,
            biasOrder: .last, clamp: .none),
        Case(
            geometry: geometry(input: (9, 11, 24), outputChannels: 8, kernel: (3, 3), stride: (1, 1), cut: (2, 2)),
            hasBias: true, biasOrder: .last, clamp: .reluMinus1To1),
    ]

    @Test(arguments: cases, [false, true])
    func kernelMatchesReference(_ c: Case, generatesMachineCode: Bool) {
        let g = c.geometry
        var random = SplitMixSource(seed: stableSeed(c.testDescription) + 11)
        let input = random.floats(g.batch * g.inputHeight * g.inputWidth * g.inputChannels)
        var filter = random.floats(g.outputChannels * g.window.kernelHeight * g.window.kernelWidth * g.inputChannels)
        let bias = c.hasBias ? random.floats(g.outputChannels) : nil
        let outputCount = g.batch * g.outputHeight * g.outputWidth * g.outputChannels
        var expected = [Float](repeating: .nan, count: outputCount)
        expected.withUnsafeMutableBufferPointer { out in
            guard let pointer = out.baseAddress else { return }
            Reference.transposeConv2D(
                geometry: g, input: input, filter: filter, bias: bias, output: pointer, biasOrder: c.biasOrder,
                clamp: c.clamp)
        }
        let tolerance = 1e-5 * Float(g.window.kernelHeight * g.window.kernelWidth * g.inputChannels).squareRoot()
        for pool in testPools {
            let kernel = TransposeConv2DKernel(
                geometry: g, filter: filter, bias: bias, biasOrder: c.biasOrder, clamp: c.clamp,
                threadCount: pool.threadCount, generatesMachineCode: generatesMachineCode)
            if generatesMachineCode && HostCPU.supportsGeneratedAVX2 { #expect(kernel.usesGeneratedCode) }
            var scratch = [Float](repeating: .nan, count: max(1, kernel.scratchFloatCount))
            var actual = [Float](repeating: .nan, count: outputCount)
            actual.withUnsafeMutableBufferPointer { out in
                scratch.withUnsafeMutableBufferPointer { scratchBuffer in
                    guard let pointer = out.baseAddress, let scratchPointer = scratchBuffer.baseAddress else { return }
                    kernel.run(input: input, output: pointer, scratch: scratchPointer, pool: pool)
                }
            }
            expectNearlyEqual(
                actual, expected, tolerance: tolerance, "\(c.testDescription) threads=\(pool.threadCount)")
        }
        // The kernel copied its weights: the caller's filter may change afterwards.
        for index in filter.indices { filter[index] = .nan }
    }

    /// Non-overlapping taps with the bias first: each output is the bias plus one input pixel's dot product.
    @Test func strideTwoKernelTwoIsBiasPlusOneDotProduct() {
        let g = Self.geometry(input: (1, 1, 2), outputChannels: 1, kernel: (2, 2), stride: (2, 2))
        let input: [Float] = [1, 2]
        let filter: [Float] = [1, 0, 0, 1, 2, 2, -1, 0]  // [1, 2, 2, 2]: taps (0,0) (0,1) (1,0) (1,1)
        let bias: [Float] = [0.5]
        var output = [Float](repeating: .nan, count: 4)
        output.withUnsafeMutableBufferPointer { out in
            guard let pointer = out.baseAddress else { return }
            Reference.transposeConv2D(
                geometry: g, input: input, filter: filter, bias: bias, output: pointer, biasOrder: .first,
                clamp: .none)
        }
        #expect(output == [1.5, 2.5, 6.5, -0.5])
    }
}
