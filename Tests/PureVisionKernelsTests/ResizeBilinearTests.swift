import PureVisionKernels
import Testing

struct ResizeBilinearTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var batch, inputHeight, inputWidth, channels, outputHeight, outputWidth: Int
        var testDescription: String {
            "\(batch)x\(inputHeight)x\(inputWidth)x\(channels) → \(outputHeight)x\(outputWidth)"
        }
    }

    static let cases: [Case] = [
        Case(batch: 1, inputHeight: 2, inputWidth: 2, channels: 1, outputHeight: 4, outputWidth: 4),
        Case(batch: 2, inputHeight: 5, inputWidth: 7, channels: 3, outputHeight: 11, outputWidth: 9),
        Case(batch: 1, inputHeight: 9, inputWidth: 8, channels: 17, outputHeight: 4, outputWidth: 3),
        Case(batch: 1, inputHeight: 1, inputWidth: 1, channels: 8, outputHeight: 3, outputWidth: 5),
        Case(batch: 2, inputHeight: 6, inputWidth: 6, channels: 7, outputHeight: 1, outputWidth: 1),
        Case(batch: 1, inputHeight: 16, inputWidth: 16, channels: 31, outputHeight: 32, outputWidth: 32),
        // Upscales reuse interpolated rows across output rows, and across a task's image boundary.
        Case(batch: 2, inputHeight: 5, inputWidth: 4, channels: 21, outputHeight: 37, outputWidth: 29),
        Case(batch: 3, inputHeight: 2, inputWidth: 3, channels: 9, outputHeight: 13, outputWidth: 8),
    ]

    @Test(arguments: cases, [(false, false), (true, false), (false, true)])
    func matchesReference(_ shape: Case, flags: (alignCorners: Bool, halfPixelCenters: Bool)) {
        var random = Random(state: UInt64(shape.outputHeight * 131 + shape.channels))
        let input = random.floats(shape.batch * shape.inputHeight * shape.inputWidth * shape.channels)
        let count = shape.batch * shape.outputHeight * shape.outputWidth * shape.channels
        var expected = [Float](repeating: .nan, count: count)
        var actual = [Float](repeating: .nan, count: count)
        Reference.resizeBilinear(
            input: input, batch: shape.batch, inputHeight: shape.inputHeight, inputWidth: shape.inputWidth,
            channels: shape.channels, output: &expected, outputHeight: shape.outputHeight,
            outputWidth: shape.outputWidth, alignCorners: flags.alignCorners,
            halfPixelCenters: flags.halfPixelCenters)
        var twin = [Float](repeating: .nan, count: count)
        Reference.resizeBilinear(
            input: input, batch: shape.batch, inputHeight: shape.inputHeight, inputWidth: shape.inputWidth,
            channels: shape.channels, output: &twin, outputHeight: shape.outputHeight,
            outputWidth: shape.outputWidth, alignCorners: flags.alignCorners,
            halfPixelCenters: flags.halfPixelCenters, arithmetic: .xnnpack)
        for threads in [1, 2, 3] {
            var scratch = [Float](
                repeating: .nan,
                count: ResizeBilinear.scratchFloatCount(
                    outputWidth: shape.outputWidth, channels: shape.channels, threadCount: threads))
            actual = [Float](repeating: .nan, count: count)
            ResizeBilinear.run(
                input: input, batch: shape.batch, inputHeight: shape.inputHeight, inputWidth: shape.inputWidth,
                channels: shape.channels, output: &actual, outputHeight: shape.outputHeight,
                outputWidth: shape.outputWidth, alignCorners: flags.alignCorners,
                halfPixelCenters: flags.halfPixelCenters, scratch: &scratch, scratchSlots: threads,
                pool: ThreadPool(threadCount: threads))
            // The kernel is the XNNPACK-arithmetic twin bit for bit, and within rounding of LiteRT's formula.
            #expect(actual.map(\.bitPattern) == twin.map(\.bitPattern), "\(threads) threads")
            expectClose(actual, expected, tolerance: 4e-6)
        }
    }

    struct HandCase: Sendable, CustomTestStringConvertible {
        var alignCorners: Bool
        var halfPixelCenters: Bool
        var outputSize: Int
        var expected: [Float]
        var testDescription: String { "align \(alignCorners) half \(halfPixelCenters) → \(outputSize)" }
    }

    /// The 2×2 image [[1, 2], [3, 4]] resized; rows below derived from TFLite's coordinate formula by hand.
    @Test(arguments: [
        HandCase(
            alignCorners: false, halfPixelCenters: false, outputSize: 4,
            expected: [1, 1.5, 2, 2, 2, 2.5, 3, 3, 3, 3.5, 4, 4, 3, 3.5, 4, 4]),
        HandCase(
            alignCorners: true, halfPixelCenters: false, outputSize: 3,
            expected: [1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4]),
        HandCase(
            alignCorners: false, halfPixelCenters: true, outputSize: 4,
            expected: [1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25, 3.75, 4]),
        HandCase(alignCorners: false, halfPixelCenters: false, outputSize: 1, expected: [1]),
        HandCase(alignCorners: false, halfPixelCenters: true, outputSize: 1, expected: [2.5]),
    ])
    func referenceHandComputed(_ hand: HandCase) {
        let n = hand.outputSize
        for arithmetic in [Reference.Arithmetic.liteRT, .xnnpack] {
            var output = [Float](repeating: .nan, count: n * n)
            Reference.resizeBilinear(
                input: [1, 2, 3, 4], batch: 1, inputHeight: 2, inputWidth: 2, channels: 1, output: &output,
                outputHeight: n, outputWidth: n, alignCorners: hand.alignCorners,
                halfPixelCenters: hand.halfPixelCenters, arithmetic: arithmetic)
            #expect(output == hand.expected, "\(arithmetic)")
        }
    }

    /// The prepared 8-bit resize (int32 sums, rows over threads) against its reference twin, bit for bit: up- and
    /// down-scaling by odd factors, 1 and 5 channels, every corner mode, int8 and uint8 extremes, 1 and 3 threads.
    @Test(
        arguments: [(5, 7, 13, 9, 1), (9, 4, 3, 11, 5), (24, 24, 48, 48, 3), (7, 1, 1, 6, 2)],
        [(false, false), (true, false), (false, true)])
    func quantizedKernelMatchesReferenceTwin(
        _ shape: (inH: Int, inW: Int, outH: Int, outW: Int, channels: Int), _ mode: (align: Bool, half: Bool)
    ) {
        let batch = 2
        let inputCount = batch * shape.inH * shape.inW * shape.channels
        let outputCount = batch * shape.outH * shape.outW * shape.channels
        let signed = (0..<inputCount).map { i in i % 7 == 0 ? Int8.min : Int8(truncatingIfNeeded: i &* 97 &+ 13) }
        let unsigned = (0..<inputCount).map { i in i % 5 == 0 ? UInt8.max : UInt8(truncatingIfNeeded: i &* 61) }
        let kernel = QuantizedResizeBilinearKernel(
            batch: batch, inputHeight: shape.inH, inputWidth: shape.inW, channels: shape.channels,
            outputHeight: shape.outH, outputWidth: shape.outW, alignCorners: mode.align, halfPixelCenters: mode.half)
        // The twin and the kernel on the same values of one type.
        func compare<T: QuantizedElement>(
            _ values: [T], threads: Int, run: (UnsafePointer<T>, UnsafeMutablePointer<T>, ThreadPool) -> Void
        ) {
            var expected = [T](repeating: 0, count: outputCount)
            var actual = [T](repeating: 1, count: outputCount)
            Reference.quantizedResizeBilinear(
                input: values, batch: batch, inputHeight: shape.inH, inputWidth: shape.inW, channels: shape.channels,
                output: &expected, outputHeight: shape.outH, outputWidth: shape.outW, alignCorners: mode.align,
                halfPixelCenters: mode.half)
            run(values, &actual, ThreadPool(threadCount: threads))
            #expect(actual == expected, "\(T.self) \(shape) \(mode) threads \(threads)")
        }
        for threads in [1, 3] {
            compare(signed, threads: threads) { kernel.run(input: $0, output: $1, pool: $2) }
            compare(unsigned, threads: threads) { kernel.run(input: $0, output: $1, pool: $2) }
        }
    }
}
