import PureVisionKernels
import Testing

struct DepthwiseConv2DTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var geometry: DepthwiseConv2DGeometry
        var hasBias: Bool
        var clamp: ClampRange
        var testDescription: String {
            let g = geometry.convolution
            return "n\(g.batch) \(g.inputHeight)x\(g.inputWidth)x\(g.inputChannels) m\(geometry.depthMultiplier)"
                + " k\(g.window.kernelHeight)x\(g.window.kernelWidth) s\(g.window.strideHeight)x\(g.window.strideWidth)"
                + " d\(g.window.dilationHeight)x\(g.window.dilationWidth) p\(g.window.paddingTop),\(g.window.paddingLeft)"
                + " out\(g.outputHeight)x\(g.outputWidth) bias=\(hasBias) clamp\(clamp)"
        }
    }

    /// A geometry whose output size follows from the input, kernel, stride, dilation and all four paddings.
    static func geometry(
        batch: Int = 1, height: Int, width: Int, channels: Int, multiplier: Int = 1,
        kernel: (Int, Int), stride: (Int, Int) = (1, 1), dilation: (Int, Int) = (1, 1),
        padding: (top: Int, bottom: Int, left: Int, right: Int) = (0, 0, 0, 0)
    ) -> DepthwiseConv2DGeometry {
        let extentHeight = (kernel.0 - 1) * dilation.0 + 1
        let extentWidth = (kernel.1 - 1) * dilation.1 + 1
        return DepthwiseConv2DGeometry(
            convolution: Conv2DGeometry(
                batch: batch, inputHeight: height, inputWidth: width, inputChannels: channels,
                outputHeight: (height + padding.top + padding.bottom - extentHeight) / stride.0 + 1,
                outputWidth: (width + padding.left + padding.right - extentWidth) / stride.1 + 1,
                outputChannels: channels * multiplier,
                window: Window2D(
                    kernelHeight: kernel.0, kernelWidth: kernel.1, strideHeight: stride.0, strideWidth: stride.1,
                    dilationHeight: dilation.0, dilationWidth: dilation.1, paddingTop: padding.top,
                    paddingLeft: padding.left)))
    }

    static let cases: [Case] = {
        var cases: [Case] = []
        let clamps = [ClampRange.none, .relu, .relu6, .reluMinus1To1]
        let spatial: [(kernel: (Int, Int), stride: (Int, Int), dilation: (Int, Int), padding: (Int, Int, Int, Int))] = [
            ((3, 3), (1, 1), (1, 1), (1, 1, 1, 1)),
            ((3, 3), (1, 1), (1, 1), (0, 0, 0, 0)),
            ((3, 3), (2, 2), (1, 1), (0, 1, 0, 1)),
            ((3, 3), (2, 2), (1, 1), (1, 1, 1, 1)),
            ((5, 5), (1, 1), (1, 1), (2, 2, 2, 2)),
            ((5, 5), (2, 2), (1, 1), (1, 2, 1, 2)),
            ((3, 3), (1, 1), (2, 2), (2, 2, 2, 2)),
            ((3, 3), (1, 1), (3, 2), (3, 3, 2, 2)),
            ((1, 1), (1, 1), (1, 1), (0, 0, 0, 0)),
            ((2, 3), (1, 2), (1, 1), (0, 1, 1, 1)),
            ((3, 3), (1, 1), (1, 1), (4, 4, 4, 4)),
        ]
        for (index, s) in spatial.enumerated() {
            for channels in [1, 3, 7, 8, 9, 17, 31] {
                cases.append(
                    Case(
                        geometry: geometry(
                            batch: 1 + index % 2, height: 9, width: 11, channels: channels,
                            kernel: s.kernel, stride: s.stride, dilation: s.dilation, padding: s.padding),
                        hasBias: (index + channels) % 2 == 0, clamp: clamps[(index + channels) % clamps.count]))
            }
        }
        // Wide rows reach the four-pixel interior path several times, with a remainder and edge columns.
        for (kernel, stride, padding, channels) in [
            ((3, 3), (1, 1), (1, 1, 1, 1), 4), ((5, 5), (1, 1), (2, 2, 2, 2), 32), ((3, 3), (2, 2), (0, 1, 0, 1), 12),
            ((5, 5), (2, 2), (1, 2, 1, 2), 20), ((3, 3), (1, 1), (0, 0, 0, 0), 8),
            // Eight-channel blocks plus a four-channel tail; 32-channel single-pixel blocks plus tails.
            ((3, 3), (1, 1), (1, 1, 1, 1), 44), ((5, 5), (2, 2), (2, 2, 2, 2), 36), ((3, 3), (2, 2), (0, 1, 0, 1), 68),
            ((3, 3), (1, 1), (1, 1, 1, 1), 67),
        ] {
            cases.append(
                Case(
                    geometry: geometry(
                        height: 6, width: 23, channels: channels, kernel: kernel, stride: stride,
                        padding: padding),
                    hasBias: channels % 8 == 0, clamp: channels == 32 ? .none : .relu6))
        }
        for (channels, multiplier) in [(1, 2), (3, 4), (7, 3), (8, 2), (1, 17)] {
            cases.append(
                Case(
                    geometry: geometry(
                        batch: 2, height: 7, width: 5, channels: channels, multiplier: multiplier,
                        kernel: (3, 3), stride: (2, 1), padding: (1, 1, 1, 1)),
                    hasBias: multiplier % 2 == 0, clamp: .relu6))
        }
        return cases
    }()

    static func runKernel(_ kernel: DepthwiseConv2DKernel, input: [Float], pool: ThreadPool) -> [Float] {
        let g = kernel.geometry.convolution
        var output = [Float](repeating: .nan, count: g.batch * g.outputHeight * g.outputWidth * g.outputChannels)
        var scratch = [Float](repeating: .nan, count: 1)
        output.withUnsafeMutableBufferPointer { out in
            scratch.withUnsafeMutableBufferPointer { s in
                guard let pointer = out.baseAddress, let scratchPointer = s.baseAddress else { return }
                kernel.run(input: input, output: pointer, scratch: scratchPointer, pool: pool)
            }
        }
        return output
    }

    @Test(arguments: cases)
    func kernelMatchesReference(_ c: Case) {
        let g = c.geometry
        var random = SplitMixSource(seed: stableSeed(g) + 11)
        let input = random.floats(
            g.convolution.batch * g.convolution.inputHeight * g.convolution.inputWidth * g.convolution.inputChannels)
        var filter = random.floats(
            g.convolution.window.kernelHeight * g.convolution.window.kernelWidth * g.convolution.outputChannels)
        let bias = c.hasBias ? random.floats(g.convolution.outputChannels) : nil
        var expected = [Float](
            repeating: .nan,
            count: g.convolution.batch * g.convolution.outputHeight * g.convolution.outputWidth
                * g.convolution.outputChannels)
        expected.withUnsafeMutableBufferPointer { out in
            guard let pointer = out.baseAddress else { return }
            Reference.depthwiseConv2D(
                geometry: g, input: input, filter: filter, bias: bias, output: pointer, clamp: c.clamp)
        }
        let kernel = DepthwiseConv2DKernel(geometry: g, filter: filter, bias: bias, clamp: c.clamp)
        #expect(kernel.scratchFloatCount == 0)
        for index in filter.indices { filter[index] = .nan }
        let tolerance = 1e-5 * Float(g.convolution.window.kernelHeight * g.convolution.window.kernelWidth).squareRoot()
        for pool in testPools {
            let actual = DepthwiseConv2DTests.runKernel(kernel, input: input, pool: pool)
            expectNearlyEqual(actual, expected, tolerance: tolerance, "\(c) threads=\(pool.threadCount)")
        }
    }

    /// The Swift loops give their twin's bits (``DepthwiseConv2DKernel/arithmetic``: XNNPACK's fused, column-first
    /// sums where the target fuses, LiteRT's elsewhere) on every case and thread count.
    @Test(arguments: cases)
    func kernelMatchesItsArithmeticTwinBitForBit(_ c: Case) {
        let g = c.geometry
        let shape = g.convolution
        var random = SplitMixSource(seed: stableSeed(g) + 13)
        let input = random.floats(shape.batch * shape.inputHeight * shape.inputWidth * shape.inputChannels)
        let filter = random.floats(shape.window.kernelHeight * shape.window.kernelWidth * shape.outputChannels)
        let bias = c.hasBias ? random.floats(shape.outputChannels) : nil
        let kernel = DepthwiseConv2DKernel(geometry: g, filter: filter, bias: bias, clamp: c.clamp)
        #expect(kernel.arithmetic == (SwiftKernelTarget.fusesMultiplyAdd ? .xnnpack : .liteRT))
        var expected = [Float](
            repeating: .nan, count: shape.batch * shape.outputHeight * shape.outputWidth * shape.outputChannels)
        expected.withUnsafeMutableBufferPointer { out in
            guard let pointer = out.baseAddress else { return }
            Reference.depthwiseConv2D(
                geometry: g, input: input, filter: filter, bias: bias, output: pointer, clamp: c.clamp,
                arithmetic: kernel.arithmetic)
        }
        for pool in testPools {
            let actual = DepthwiseConv2DTests.runKernel(kernel, input: input, pool: pool)
            expectBitIdentical(actual, expected, "\(c) threads=\(pool.threadCount)")
        }
    }

    /// 3×3 SAME depthwise of an all-ones 3×3 input counts in-bounds taps (corners 4, edges 6, centre 9), scaled per
    /// output channel by its weight; multiplier 2 gives channel pairs per input channel.
    @Test(arguments: [false, true])
    func onesConvolutionCountsTaps(optimized: Bool) {
        let g = DepthwiseConv2DTests.geometry(
            height: 3, width: 3, channels: 1, multiplier: 2, kernel: (3, 3),
            padding: (1, 1, 1, 1))
        let input = [Float](repeating: 1, count: 9)
        let filter = [Float]((0..<9).map { _ in [Float(1), -0.5] }.joined())
        let bias: [Float] = [0.25, 0]
        let output: [Float]
        if optimized {
            let kernel = DepthwiseConv2DKernel(geometry: g, filter: filter, bias: bias, clamp: .reluMinus1To1)
            output = DepthwiseConv2DTests.runKernel(kernel, input: input, pool: .serial)
        } else {
            var result = [Float](repeating: .nan, count: 18)
            result.withUnsafeMutableBufferPointer { out in
                guard let pointer = out.baseAddress else { return }
                Reference.depthwiseConv2D(
                    geometry: g, input: input, filter: filter, bias: bias, output: pointer, clamp: .none)
            }
            output = result
        }
        let taps: [Float] = [4, 6, 4, 6, 9, 6, 4, 6, 4]
        let expected = taps.flatMap { count in
            optimized ? [min(count + 0.25, 1), max(-0.5 * count, -1)] : [count + 0.25, -0.5 * count]
        }
        #expect(output == expected)
    }
}
