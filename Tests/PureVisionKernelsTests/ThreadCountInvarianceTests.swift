import PureVisionKernels
import Testing

/// The CBLAS path of the convolution and fully connected kernels gives the same bits on any number of threads: BLAS
/// sums depend on each call's shape, so those kernels cut their work by the sizes alone (the generated code's
/// twins are checked in the machine-code suites). Shapes large enough to be cut, with odd sizes so that the last
/// block or range is a short one.
@Suite struct ThreadCountInvarianceTests {
    static let threadCounts = [2, 3, 5, 16]

    /// Expects `run(threads)` to write every output (no NaN left) and to give one thread's bits on each of
    /// ``threadCounts``.
    static func expectSameBitsOnEveryThreadCount(
        _ context: String, _ run: (Int) -> [Float], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let one = run(1)
        #expect(!one.contains { $0.isNaN }, "\(context): output not written", sourceLocation: sourceLocation)
        for threads in threadCounts {
            #expect(
                run(threads).map(\.bitPattern) == one.map(\.bitPattern), "\(context) on \(threads) threads",
                sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [(1, 23, 19, 13, 3, 24), (2, 9, 31, 7, 1, 130), (1, 1, 1, 1001, 1, 517)])
    func convolutionBitsDoNotDependOnThreads(
        _ shape: (batch: Int, height: Int, width: Int, inputChannels: Int, kernel: Int, outputChannels: Int)
    ) {
        let pad = shape.kernel / 2
        let geometry = Conv2DGeometry(
            batch: shape.batch, inputHeight: shape.height, inputWidth: shape.width, inputChannels: shape.inputChannels,
            outputHeight: shape.height, outputWidth: shape.width, outputChannels: shape.outputChannels,
            window: Window2D(
                kernelHeight: shape.kernel, kernelWidth: shape.kernel, strideHeight: 1, strideWidth: 1,
                dilationHeight: 1, dilationWidth: 1, paddingTop: pad, paddingLeft: pad))
        var random = SplitMixSource(seed: UInt64(shape.height * 1009 + shape.outputChannels))
        let input = random.floats(shape.batch * shape.height * shape.width * shape.inputChannels)
        let filter = random.floats(shape.outputChannels * shape.kernel * shape.kernel * shape.inputChannels)
        let bias = random.floats(shape.outputChannels)
        let outputCount = shape.batch * shape.height * shape.width * shape.outputChannels

        func run(threads: Int) -> [Float] {
            let kernel = Conv2DKernel(
                geometry: geometry, filter: filter, bias: bias, clamp: .relu6, threadCount: threads,
                generatesMachineCode: false)
            let pool = threads == 1 ? ThreadPool.serial : ThreadPool(threadCount: threads)
            var output = [Float](repeating: .nan, count: outputCount)
            var scratch = [Float](repeating: 0, count: max(1, kernel.scratchFloatCount))
            output.withUnsafeMutableBufferPointer { out in
                scratch.withUnsafeMutableBufferPointer { slots in
                    guard let outPointer = out.baseAddress, let slotPointer = slots.baseAddress else { return }
                    kernel.run(input: input, output: outPointer, scratch: slotPointer, pool: pool)
                }
            }
            return output
        }
        Self.expectSameBitsOnEveryThreadCount("\(shape)", run)
    }

    @Test(arguments: [(1, 1001, 517), (1, 1280, 1000), (3, 257, 129)])
    func fullyConnectedBitsDoNotDependOnThreads(_ shape: (batch: Int, inputSize: Int, outputSize: Int)) {
        var random = SplitMixSource(seed: UInt64(shape.inputSize * 31 + shape.outputSize))
        let input = random.floats(shape.batch * shape.inputSize)
        let weights = random.floats(shape.outputSize * shape.inputSize)
        let bias = random.floats(shape.outputSize)

        func run(threads: Int) -> [Float] {
            let kernel = FullyConnectedKernel(
                batch: shape.batch, inputSize: shape.inputSize, outputSize: shape.outputSize, weights: weights,
                bias: bias, clamp: .none, generatesMachineCode: false, threadCount: threads)
            let pool = threads == 1 ? ThreadPool.serial : ThreadPool(threadCount: threads)
            var output = [Float](repeating: .nan, count: shape.batch * shape.outputSize)
            output.withUnsafeMutableBufferPointer { out in
                guard let pointer = out.baseAddress else { return }
                kernel.run(input: input, output: pointer, pool: pool)
            }
            return output
        }
        Self.expectSameBitsOnEveryThreadCount("\(shape)", run)
    }
}
