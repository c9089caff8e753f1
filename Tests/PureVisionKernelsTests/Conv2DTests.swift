import PureVisionKernels
import Testing

struct Conv2DTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var geometry: Conv2DGeometry
        var hasBias: Bool
        var clamp: ClampRange
        var testDescription: String {
            let g = geometry
            return "n\(g.batch) \(g.inputHeight)x\(g.inputWidth)x\(g.inputChannels)->\(g.outputChannels)"
                + " k\(g.window.kernelHeight)x\(g.window.kernelWidth) s\(g.window.strideHeight)x\(g.window.strideWidth)"
                + " d\(g.window.dilationHeight)x\(g.window.dilationWidth) p\(g.window.paddingTop),\(g.window.paddingLeft)"
                + " out\(g.outputHeight)x\(g.outputWidth) bias=\(hasBias) clamp\(clamp)"
        }
    }

    /// A geometry whose output size follows from the input, kernel, stride, dilation and all four paddings.
    static func geometry(
        batch: Int = 1, height: Int, width: Int, inputChannels: Int, outputChannels: Int,
        kernel: (Int, Int), stride: (Int, Int) = (1, 1), dilation: (Int, Int) = (1, 1),
        padding: (top: Int, bottom: Int, left: Int, right: Int) = (0, 0, 0, 0)
    ) -> Conv2DGeometry {
        let extentHeight = (kernel.0 - 1) * dilation.0 + 1
        let extentWidth = (kernel.1 - 1) * dilation.1 + 1
        return Conv2DGeometry(
            batch: batch, inputHeight: height, inputWidth: width, inputChannels: inputChannels,
            outputHeight: (height + padding.top + padding.bottom - extentHeight) / stride.0 + 1,
            outputWidth: (width + padding.left + padding.right - extentWidth) / stride.1 + 1,
            outputChannels: outputChannels,
            window: Window2D(
                kernelHeight: kernel.0, kernelWidth: kernel.1, strideHeight: stride.0, strideWidth: stride.1,
                dilationHeight: dilation.0, dilationWidth: dilation.1, paddingTop: padding.top,
                paddingLeft: padding.left))
    }

    static let cases: [Case] = {
        var cases: [Case] = []
        let clamps = [ClampRange.none, .relu, .relu6, .reluMinus1To1]
        // Pointwise on tile-boundary and prime channel counts: the direct (no im2col) path.
        for (index, (cin, cout)) in [(1, 1), (3, 7), (8, 8), (9, 17), (17, 31), (31, 3)].enumerated() {
            cases.append(
                Case(
                    geometry: geometry(
                        batch: 2, height: 5, width: 7, inputChannels: cin, outputChannels: cout,
                        kernel: (1, 1)),
                    hasBias: index % 2 == 0, clamp: clamps[index % clamps.count]))
        }
        // Pointwise that is not direct: strided, padded.
        cases.append(
            Case(
                geometry: geometry(
                    height: 9, width: 7, inputChannels: 9, outputChannels: 8, kernel: (1, 1),
                    stride: (2, 2)),
                hasBias: true, clamp: .none))
        cases.append(
            Case(
                geometry: geometry(
                    height: 3, width: 5, inputChannels: 3, outputChannels: 5, kernel: (1, 1),
                    padding: (1, 0, 0, 1)),
                hasBias: true, clamp: .relu))
        // k×k: same padding, valid, strided with TFLite's asymmetric SAME padding, dilated, non-square.
        let spatial: [(kernel: (Int, Int), stride: (Int, Int), dilation: (Int, Int), padding: (Int, Int, Int, Int))] = [
            ((3, 3), (1, 1), (1, 1), (1, 1, 1, 1)),
            ((3, 3), (1, 1), (1, 1), (0, 0, 0, 0)),
            ((3, 3), (2, 2), (1, 1), (0, 1, 0, 1)),
            ((3, 3), (2, 2), (1, 1), (1, 1, 1, 1)),
            ((3, 3), (1, 1), (2, 2), (2, 2, 2, 2)),
            ((5, 5), (2, 2), (1, 1), (1, 2, 1, 2)),
            ((2, 3), (1, 2), (1, 1), (0, 1, 1, 1)),
            ((3, 1), (2, 1), (2, 1), (2, 2, 0, 0)),
            ((1, 3), (1, 1), (1, 3), (0, 0, 3, 3)),
        ]
        for (index, s) in spatial.enumerated() {
            for (cin, cout) in [(1, 8), (3, 9), (17, 7)] {
                cases.append(
                    Case(
                        geometry: geometry(
                            batch: 1 + index % 2, height: 9, width: 11, inputChannels: cin,
                            outputChannels: cout, kernel: s.kernel, stride: s.stride,
                            dilation: s.dilation, padding: s.padding),
                        hasBias: (index + cin) % 2 == 0, clamp: clamps[(index + cout) % clamps.count]))
            }
        }
        // Padding larger than the kernel reach: whole output rows read nothing but zeros.
        cases.append(
            Case(
                geometry: geometry(
                    height: 3, width: 3, inputChannels: 2, outputChannels: 3, kernel: (3, 3),
                    padding: (3, 3, 3, 3)),
                hasBias: true, clamp: .none))
        // Several GEMM blocks (K = 576 gives blocks of 113 output pixels), so chunks split and slots matter.
        cases.append(
            Case(
                geometry: geometry(
                    batch: 2, height: 13, width: 11, inputChannels: 64, outputChannels: 9,
                    kernel: (3, 3), padding: (1, 1, 1, 1)),
                hasBias: true, clamp: .relu6))
        // A kernel covering the whole input, one output pixel per image: the input is read in place, K = 30 per row.
        cases.append(
            Case(
                geometry: geometry(
                    batch: 2, height: 3, width: 2, inputChannels: 5, outputChannels: 37, kernel: (3, 2)),
                hasBias: true, clamp: .relu6))
        // The shape of the end of MediaPipe's face landmark model (K = 512, N = 1434), batch 2 so that rows are K
        // apart: threads cut it by columns.
        cases.append(
            Case(
                geometry: geometry(
                    batch: 2, height: 2, width: 2, inputChannels: 128, outputChannels: 1434, kernel: (2, 2)),
                hasBias: true, clamp: .none))
        // Many blocks in the direct path: K = N = 1 gives 65536-pixel blocks, so use a large, thin image.
        cases.append(
            Case(
                geometry: geometry(height: 300, width: 301, inputChannels: 1, outputChannels: 1, kernel: (1, 1)),
                hasBias: true, clamp: .relu))
        return cases
    }()

    @Test(arguments: cases)
    func kernelMatchesReference(_ c: Case) {
        let g = c.geometry
        var random = SplitMixSource(seed: stableSeed(g) + 7)
        let input = random.floats(g.batch * g.inputHeight * g.inputWidth * g.inputChannels)
        var filter = random.floats(g.outputChannels * g.window.kernelHeight * g.window.kernelWidth * g.inputChannels)
        let bias = c.hasBias ? random.floats(g.outputChannels) : nil
        let outputCount = g.batch * g.outputHeight * g.outputWidth * g.outputChannels
        var expected = [Float](repeating: .nan, count: outputCount)
        expected.withUnsafeMutableBufferPointer { out in
            guard let pointer = out.baseAddress else { return }
            Reference.conv2D(geometry: g, input: input, filter: filter, bias: bias, output: pointer, clamp: c.clamp)
        }
        // CBLAS and the Swift micro-kernel alike, whichever this build's target would choose.
        let kernels = [false, true].map { microKernel in
            Conv2DKernel(geometry: g, filter: filter, bias: bias, clamp: c.clamp, microKernel: microKernel)
        }
        // The kernel must have copied its weights: clobbering the caller's filter cannot change its results.
        for index in filter.indices { filter[index] = .nan }
        var scratch = [Float](repeating: .nan, count: max(1, kernels.map(\.scratchFloatCount).max() ?? 1))
        let tolerance = 1e-5 * Float(g.window.kernelHeight * g.window.kernelWidth * g.inputChannels).squareRoot()
        for kernel in kernels {
            for pool in testPools {
                var actual = [Float](repeating: .nan, count: outputCount)
                actual.withUnsafeMutableBufferPointer { out in
                    scratch.withUnsafeMutableBufferPointer { scratchBuffer in
                        guard let pointer = out.baseAddress, let scratchPointer = scratchBuffer.baseAddress else {
                            return
                        }
                        kernel.run(input: input, output: pointer, scratch: scratchPointer, pool: pool)
                    }
                }
                expectNearlyEqual(
                    actual, expected, tolerance: tolerance,
                    "\(c) threads=\(pool.threadCount) family=\(kernel.kernelFamily)")
            }
        }
    }

    /// The Swift micro-kernel path gives its scalar twin's bits on every case and pool, whether it gathers the
    /// pixels' receptive fields (im2col) or reads interior pixels in place: XNNPACK's arithmetic where the target
    /// fuses multiply-adds, LiteRT's order from the bias elsewhere.
    @Test(arguments: cases)
    func microKernelMatchesItsTwinBitForBit(_ c: Case) {
        let g = c.geometry
        var random = SplitMixSource(seed: stableSeed(g) + 17)
        let input = random.floats(g.batch * g.inputHeight * g.inputWidth * g.inputChannels)
        let filter = random.floats(g.outputChannels * g.window.kernelHeight * g.window.kernelWidth * g.inputChannels)
        let bias = c.hasBias ? random.floats(g.outputChannels) : nil
        let outputCount = g.batch * g.outputHeight * g.outputWidth * g.outputChannels
        var expected = [Float](repeating: .nan, count: outputCount)
        expected.withUnsafeMutableBufferPointer { out in
            guard let pointer = out.baseAddress else { return }
            Reference.conv2D(
                geometry: g, input: input, filter: filter, bias: bias, output: pointer, clamp: c.clamp,
                arithmetic: PanelGEMMTests.arithmetic)
        }
        for pool in testPools {
            let kernel = Conv2DKernel(
                geometry: g, filter: filter, bias: bias, clamp: c.clamp, threadCount: pool.threadCount,
                microKernel: true)
            let actual = OutputEpilogueTests.run(count: outputCount, scratch: kernel.scratchFloatCount, residual: nil) {
                y, _, scratch in
                kernel.run(input: input, output: y, scratch: scratch, pool: pool)
            }
            expectBitIdentical(actual, expected, "\(c) threads=\(pool.threadCount)")
        }
    }

    /// Kernels prepared for a pool size cut the output into a multiple of that many blocks once the work is large
    /// enough; every such partition (odd row counts, 1×1 direct and k×k im2col) matches the reference.
    @Test(arguments: [(17, 13, 9, 31, 3), (16, 16, 88, 88, 1), (7, 11, 5, 67, 5), (64, 64, 3, 24, 5)])
    func threadAwareBlocksMatchReference(_ shape: (Int, Int, Int, Int, Int)) {
        let (height, width, inputChannels, outputChannels, size) = shape
        let g = Conv2DTests.geometry(
            height: height, width: width, inputChannels: inputChannels, outputChannels: outputChannels,
            kernel: (size, size), stride: size == 5 ? (2, 2) : (1, 1),
            padding: (size / 2, size / 2, size / 2, size / 2))
        var random = SplitMixSource(seed: UInt64(height * 1000 + outputChannels))
        let input = random.floats(g.inputHeight * g.inputWidth * g.inputChannels)
        let filter = random.floats(g.outputChannels * g.window.kernelHeight * g.window.kernelWidth * g.inputChannels)
        let bias = random.floats(g.outputChannels)
        let outputCount = g.outputHeight * g.outputWidth * g.outputChannels
        var expected = [Float](repeating: .nan, count: outputCount)
        expected.withUnsafeMutableBufferPointer { out in
            guard let pointer = out.baseAddress else { return }
            Reference.conv2D(geometry: g, input: input, filter: filter, bias: bias, output: pointer, clamp: .relu)
        }
        let tolerance = 1e-5 * Float(g.window.kernelHeight * g.window.kernelWidth * g.inputChannels).squareRoot()
        // CBLAS and the Swift micro-kernel alike, whichever this build's target would choose.
        for (pool, microKernel) in testPools.flatMap({ pool in [(pool, false), (pool, true)] }) {
            let kernel = Conv2DKernel(
                geometry: g, filter: filter, bias: bias, clamp: .relu, threadCount: pool.threadCount,
                microKernel: microKernel)
            var scratch = [Float](repeating: .nan, count: max(1, kernel.scratchFloatCount))
            var actual = [Float](repeating: .nan, count: outputCount)
            actual.withUnsafeMutableBufferPointer { out in
                scratch.withUnsafeMutableBufferPointer { scratchBuffer in
                    guard let pointer = out.baseAddress, let scratchPointer = scratchBuffer.baseAddress else { return }
                    kernel.run(input: input, output: pointer, scratch: scratchPointer, pool: pool)
                }
            }
            expectNearlyEqual(
                actual, expected, tolerance: tolerance,
                "\(shape) threads=\(pool.threadCount) micro-kernel=\(microKernel)")
        }
    }

    @Test func directPointwiseNeedsNoScratch() {
        let g = Conv2DTests.geometry(height: 4, width: 4, inputChannels: 8, outputChannels: 8, kernel: (1, 1))
        let filter = [Float](repeating: 1, count: 64)
        #expect(Conv2DKernel(geometry: g, filter: filter, bias: nil, clamp: .none).scratchFloatCount == 0)
    }

    /// A 3×3 SAME convolution of an all-ones 3×3×2 input with all-ones weights counts in-bounds taps times 2:
    /// corners see 4 taps, edges 6, the centre 9.
    @Test(arguments: [false, true])
    func onesConvolutionCountsTaps(optimized: Bool) {
        let g = Conv2DTests.geometry(
            height: 3, width: 3, inputChannels: 2, outputChannels: 2, kernel: (3, 3),
            padding: (1, 1, 1, 1))
        let input = [Float](repeating: 1, count: 18)
        let filter = [Float](repeating: 1, count: 36)
        let bias: [Float] = [0.5, 0]
        var output = [Float](repeating: .nan, count: 18)
        output.withUnsafeMutableBufferPointer { out in
            guard let pointer = out.baseAddress else { return }
            if optimized {
                let kernel = Conv2DKernel(geometry: g, filter: filter, bias: bias, clamp: .relu6)
                var scratch = [Float](repeating: 0, count: kernel.scratchFloatCount)
                scratch.withUnsafeMutableBufferPointer { s in
                    guard let scratchPointer = s.baseAddress else { return }
                    kernel.run(input: input, output: pointer, scratch: scratchPointer, pool: .serial)
                }
            } else {
                Reference.conv2D(geometry: g, input: input, filter: filter, bias: bias, output: pointer, clamp: .relu6)
            }
        }
        let taps: [Float] = [4, 6, 4, 6, 9, 6, 4, 6, 4]
        let expected = taps.flatMap { [min($0 * 2 + 0.5, 6), min($0 * 2, 6)] }
        #expect(output == expected)
    }

    /// Stride 2 with an asymmetric pad picks the taps by hand: a 1-channel 4×4 ramp, 2×2 identity-corner filter.
    @Test func strideAndPaddingPickTheRightTaps() {
        // Input x[r][c] = 4r + c; filter picks tap (1, 1) only; pad top/left 1, stride 2: output (oy, ox) reads
        // input (2·oy, 2·ox).
        let g = Conv2DTests.geometry(
            height: 4, width: 4, inputChannels: 1, outputChannels: 1, kernel: (2, 2),
            stride: (2, 2), padding: (1, 0, 1, 0))
        #expect(g.outputHeight == 2 && g.outputWidth == 2)
        let input = (0..<16).map(Float.init)
        let filter: [Float] = [0, 0, 0, 1]
        var output = [Float](repeating: .nan, count: 4)
        output.withUnsafeMutableBufferPointer { out in
            guard let pointer = out.baseAddress else { return }
            Reference.conv2D(geometry: g, input: input, filter: filter, bias: nil, output: pointer, clamp: .none)
        }
        #expect(output == [0, 2, 8, 10])
    }
}
