import PureVisionKernels
import Testing

struct BinaryElementwiseTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var lhs: [Int]
        var rhs: [Int]
        var output: [Int]
        var testDescription: String { "\(lhs) ∘ \(rhs) → \(output)" }
    }

    static let cases: [Case] = [
        Case(lhs: [2, 5, 7, 9], rhs: [2, 5, 7, 9], output: [2, 5, 7, 9]),
        Case(lhs: [1], rhs: [3, 17], output: [3, 17]),
        Case(lhs: [2, 3, 31], rhs: [], output: [2, 3, 31]),
        Case(lhs: [1, 3, 5, 17], rhs: [17], output: [1, 3, 5, 17]),
        Case(lhs: [1, 1, 1, 8], rhs: [2, 3, 7, 8], output: [2, 3, 7, 8]),
        Case(lhs: [2, 7, 9, 1], rhs: [2, 7, 9, 1], output: [2, 7, 9, 1]),
        Case(lhs: [2, 1, 7, 1], rhs: [1, 5, 1, 3], output: [2, 5, 7, 3]),
        Case(lhs: [3, 1, 9], rhs: [3, 4, 9], output: [3, 4, 9]),
        Case(lhs: [3, 4, 1], rhs: [1, 4, 9], output: [3, 4, 9]),
        Case(lhs: [2, 1, 3, 1, 2, 5], rhs: [3, 1, 4, 2, 1], output: [2, 3, 3, 4, 2, 5]),
        Case(lhs: [1, 1], rhs: [1], output: [1, 1]),
        Case(lhs: [3, 0, 4], rhs: [4], output: [3, 0, 4]),
    ]

    /// Large enough that a multi-threaded pool really splits the work.
    static let splitCases: [Case] = [
        Case(lhs: [2, 33, 31, 17], rhs: [17], output: [2, 33, 31, 17]),
        Case(lhs: [1, 33, 1, 17], rhs: [2, 1, 31, 1], output: [2, 33, 31, 17]),
        Case(lhs: [40_000], rhs: [1], output: [40_000]),
    ]

    static let clamps: [ClampRange] = [.none, .relu, .relu6, .reluMinus1To1]

    @Test(arguments: cases, [ThreadPool.serial, ThreadPool(threadCount: 3)])
    func matchesReference(_ shapes: Case, pool: ThreadPool) {
        var random = Random(state: UInt64(shapes.output.reduce(7, { $0 &* 31 &+ $1 })))
        let lhs = random.floats(shapes.lhs.reduce(1, *))
        let rhs = random.floats(shapes.rhs.reduce(1, *), 0.25, 3)
        let count = shapes.output.reduce(1, *)
        for (index, op) in BinaryOperation.allCases.enumerated() {
            let clamp = Self.clamps[(index + count) % Self.clamps.count]
            do {
                var expected = [Float](repeating: .nan, count: count)
                var actual = [Float](repeating: .nan, count: count)
                Reference.binary(
                    op, lhs: lhs, lhsShape: shapes.lhs, rhs: rhs, rhsShape: shapes.rhs, output: &expected,
                    outputShape: shapes.output, clamp: clamp)
                BinaryElementwise.run(
                    op, lhs: lhs, lhsShape: shapes.lhs, rhs: rhs, rhsShape: shapes.rhs, output: &actual,
                    outputShape: shapes.output, clamp: clamp, pool: pool)
                expectClose(actual, expected, tolerance: 0, "\(op) \(clamp)")
            }
        }
    }

    @Test(arguments: splitCases)
    func splitOverThreadsMatchesReference(_ shapes: Case) {
        var random = Random(state: 5)
        let lhs = random.floats(shapes.lhs.reduce(1, *))
        let rhs = random.floats(shapes.rhs.reduce(1, *), 0.25, 3)
        let count = shapes.output.reduce(1, *)
        var expected = [Float](repeating: .nan, count: count)
        var actual = [Float](repeating: .nan, count: count)
        Reference.binary(
            .squaredDifference, lhs: lhs, lhsShape: shapes.lhs, rhs: rhs, rhsShape: shapes.rhs, output: &expected,
            outputShape: shapes.output, clamp: .relu6)
        BinaryElementwise.run(
            .squaredDifference, lhs: lhs, lhsShape: shapes.lhs, rhs: rhs, rhsShape: shapes.rhs, output: &actual,
            outputShape: shapes.output, clamp: .relu6, pool: ThreadPool(threadCount: 3))
        expectClose(actual, expected, tolerance: 0)
    }

    @Test func runsInPlaceOnTheLeftOperand() {
        var random = Random(state: 11)
        var values = random.floats(3 * 5 * 7)
        let bias = random.floats(7)
        var expected = [Float](repeating: 0, count: values.count)
        Reference.binary(
            .add, lhs: values, lhsShape: [3, 5, 7], rhs: bias, rhsShape: [7], output: &expected,
            outputShape: [3, 5, 7], clamp: .relu)
        values.withUnsafeMutableBufferPointer { buffer in
            let pointer = buffer.baseAddress!
            BinaryElementwise.run(
                .add, lhs: pointer, lhsShape: [3, 5, 7], rhs: bias, rhsShape: [7], output: pointer,
                outputShape: [3, 5, 7], clamp: .relu, pool: .serial)
        }
        expectClose(values, expected, tolerance: 0)
    }

    struct HandCase: Sendable, CustomTestStringConvertible {
        var op: BinaryOperation
        var clamp: ClampRange
        var expected: [Float]
        var testDescription: String { "\(op) \(clamp)" }
    }

    /// lhs = [[1, -2], [3, 8]] against rhs = [2, 4] broadcast over rows.
    @Test(arguments: [
        HandCase(op: .add, clamp: .none, expected: [3, 2, 5, 12]),
        HandCase(op: .sub, clamp: .none, expected: [-1, -6, 1, 4]),
        HandCase(op: .mul, clamp: .none, expected: [2, -8, 6, 32]),
        HandCase(op: .div, clamp: .none, expected: [0.5, -0.5, 1.5, 2]),
        HandCase(op: .maximum, clamp: .none, expected: [2, 4, 3, 8]),
        HandCase(op: .minimum, clamp: .none, expected: [1, -2, 2, 4]),
        HandCase(op: .squaredDifference, clamp: .none, expected: [1, 36, 1, 16]),
        HandCase(op: .mul, clamp: .relu6, expected: [2, 0, 6, 6]),
        HandCase(op: .sub, clamp: .reluMinus1To1, expected: [-1, -1, 1, 1]),
    ])
    func referenceHandComputed(_ hand: HandCase) {
        let lhs: [Float] = [1, -2, 3, 8]
        let rhs: [Float] = [2, 4]
        var output = [Float](repeating: .nan, count: 4)
        Reference.binary(
            hand.op, lhs: lhs, lhsShape: [2, 2], rhs: rhs, rhsShape: [2], output: &output, outputShape: [2, 2],
            clamp: hand.clamp)
        #expect(output == hand.expected)
    }

    @Test func referenceBroadcastsBothOperands() {
        // [2, 1] + [1, 3] → outer sum.
        var output = [Float](repeating: .nan, count: 6)
        Reference.binary(
            .add, lhs: [10, 20], lhsShape: [2, 1], rhs: [1, 2, 3], rhsShape: [1, 3], output: &output,
            outputShape: [2, 3], clamp: .none)
        #expect(output == [11, 12, 13, 21, 22, 23])
    }
}
