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
        ResizeBilinear.run(
            input: input, batch: shape.batch, inputHeight: shape.inputHeight, inputWidth: shape.inputWidth,
            channels: shape.channels, output: &actual, outputHeight: shape.outputHeight,
            outputWidth: shape.outputWidth, alignCorners: flags.alignCorners,
            halfPixelCenters: flags.halfPixelCenters, pool: ThreadPool(threadCount: 2))
        // The kernel is the XNNPACK-arithmetic twin bit for bit, and within rounding of LiteRT's formula.
        #expect(actual.map(\.bitPattern) == twin.map(\.bitPattern))
        expectClose(actual, expected, tolerance: 4e-6)
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
}
