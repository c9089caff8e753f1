import PureVisionKernels
import Testing

struct PReLUTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var input: [Int]
        var alpha: [Int]
        var testDescription: String { "x\(input) α\(alpha)" }
    }

    @Test(
        arguments: [
            Case(input: [1, 5, 7, 17], alpha: [17]),
            Case(input: [2, 3, 9, 8], alpha: [1, 1, 8]),
            Case(input: [1, 4, 4, 1], alpha: [1]),
            Case(input: [2, 3, 5, 7], alpha: [3, 5, 7]),
            Case(input: [1, 3, 1, 31], alpha: [1, 3, 1, 31]),
            Case(input: [2, 41, 23, 19], alpha: [1, 1, 19]),
        ], [ThreadPool.serial, ThreadPool(threadCount: 2)])
    func matchesReference(_ shapes: Case, pool: ThreadPool) {
        var random = Random(state: UInt64(shapes.input.reduce(1, *)))
        let input = random.floats(shapes.input.reduce(1, *))
        let alpha = random.floats(shapes.alpha.reduce(1, *), -1, 1)
        var expected = [Float](repeating: .nan, count: input.count)
        var actual = [Float](repeating: .nan, count: input.count)
        Reference.prelu(
            input: input, inputShape: shapes.input, alpha: alpha, alphaShape: shapes.alpha, output: &expected,
            outputShape: shapes.input)
        PReLU.run(
            input: input, inputShape: shapes.input, alpha: alpha, alphaShape: shapes.alpha, output: &actual,
            outputShape: shapes.input, pool: pool)
        expectClose(actual, expected, tolerance: 0)
    }

    @Test func referencePerChannelByHand() {
        // Two pixels of three channels, alpha [0.5, 2, -1].
        let input: [Float] = [-2, -3, -4, 1, 0, -0.5]
        var output = [Float](repeating: .nan, count: 6)
        Reference.prelu(
            input: input, inputShape: [1, 1, 2, 3], alpha: [0.5, 2, -1], alphaShape: [3], output: &output,
            outputShape: [1, 1, 2, 3])
        #expect(output == [-1, -6, 4, 1, 0, 0.5])
    }
}
