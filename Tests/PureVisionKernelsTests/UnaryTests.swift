import PureVisionKernels
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct UnaryTests {
    static let operations: [UnaryOperation] = [
        .relu, .relu6, .reluMinus1To1, .logistic, .tanh, .hardSwish, .leakyRelu(alpha: 0.2), .abs, .neg, .exp,
        .sqrt, .rsqrt, .square, .elu,
    ]

    @Test(arguments: operations, [1, 7, 8, 9, 31, 40_000])
    func matchesReference(_ op: UnaryOperation, count: Int) {
        var random = Random(state: UInt64(count))
        let input = random.floats(count, -9, 9)
        var expected = [Float](repeating: 0, count: count)
        var actual = [Float](repeating: 0, count: count)
        Reference.unary(op, input: input, output: &expected, count: count)
        Unary.run(op, input: input, output: &actual, count: count, pool: ThreadPool(threadCount: 3))
        expectClose(actual, expected, tolerance: 1e-6, "\(op)")
    }

    @Test(arguments: operations)
    func runsInPlace(_ op: UnaryOperation) {
        var random = Random(state: 3)
        var values = random.floats(33, -5, 5)
        var expected = [Float](repeating: 0, count: values.count)
        Reference.unary(op, input: values, output: &expected, count: values.count)
        values.withUnsafeMutableBufferPointer { buffer in
            Unary.run(op, input: buffer.baseAddress!, output: buffer.baseAddress!, count: buffer.count, pool: .serial)
        }
        expectClose(values, expected, tolerance: 1e-6, "\(op)")
    }

    /// Logistic, tanh, exp and ELU within a few ulps of the correctly rounded Double result, tails included.
    @Test(arguments: [UnaryOperation.logistic, .tanh, .exp, .elu])
    func transcendentalAccuracy(_ op: UnaryOperation) {
        var input: [Float] = [0, -0.0, 1e-8, -1e-8, 0.5, -0.5, 20, -20, 87, -87, -103, 1e-30]
        var random = Random(state: 17)
        input += random.floats(2_000, -30, 30)
        input += random.floats(500, -1, 1)
        if op == .exp { input = input.map { min($0, 80) } }
        var output = [Float](repeating: 0, count: input.count)
        Unary.run(op, input: input, output: &output, count: input.count, pool: .serial)
        for (x, y) in zip(input, output) {
            let d = Double(x)
            let exact: Double
            switch op {
            case .logistic: exact = 1 / (1 + Glibc.exp(-d))
            case .tanh: exact = Glibc.tanh(d)
            case .exp: exact = Glibc.exp(d)
            default: exact = d < 0 ? Glibc.expm1(d) : d
            }
            let ulp = Double(Float(exact).ulp)
            let error = Swift.abs(Double(y) - exact)
            #expect(error <= 2 * max(ulp, Double(Float.leastNonzeroMagnitude)), "\(op)(\(x)) = \(y), exact \(exact)")
        }
    }

    struct HandCase: Sendable, CustomTestStringConvertible {
        var op: UnaryOperation
        var expected: [Float]
        var testDescription: String { "\(op)" }
    }

    /// Inputs [-4, -1, 0, 0.25, 4, 9].
    @Test(arguments: [
        HandCase(op: .relu, expected: [0, 0, 0, 0.25, 4, 9]),
        HandCase(op: .relu6, expected: [0, 0, 0, 0.25, 4, 6]),
        HandCase(op: .reluMinus1To1, expected: [-1, -1, 0, 0.25, 1, 1]),
        HandCase(op: .hardSwish, expected: [0, -1.0 / 3, 0, 0.25 * 3.25 / 6, 4, 9]),
        HandCase(op: .leakyRelu(alpha: 0.5), expected: [-2, -0.5, 0, 0.25, 4, 9]),
        HandCase(op: .abs, expected: [4, 1, 0, 0.25, 4, 9]),
        HandCase(op: .neg, expected: [4, 1, -0.0, -0.25, -4, -9]),
        HandCase(op: .square, expected: [16, 1, 0, 0.0625, 16, 81]),
        HandCase(op: .logistic, expected: [0.01798621, 0.26894142, 0.5, 0.5621765, 0.98201379, 0.99987661]),
    ])
    func referenceHandComputed(_ hand: HandCase) {
        let input: [Float] = [-4, -1, 0, 0.25, 4, 9]
        var output = [Float](repeating: .nan, count: input.count)
        Reference.unary(hand.op, input: input, output: &output, count: input.count)
        expectClose(output, hand.expected, tolerance: 1e-6)
    }

    @Test func referenceRootsOfPerfectSquares() {
        let input: [Float] = [0.25, 1, 4, 9, -1]
        var roots = [Float](repeating: 0, count: 5)
        var inverse = [Float](repeating: 0, count: 5)
        Reference.unary(.sqrt, input: input, output: &roots, count: 5)
        Reference.unary(.rsqrt, input: input, output: &inverse, count: 5)
        #expect(Array(roots.prefix(4)) == [0.5, 1, 2, 3] && roots[4].isNaN)
        #expect(Array(inverse.prefix(4)) == [2, 1, 0.5, Float(1) / 3] as [Float] && inverse[4].isNaN)
    }
}
