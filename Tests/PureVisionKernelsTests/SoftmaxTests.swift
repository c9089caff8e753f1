import PureVisionKernels
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct SoftmaxTests {
    @Test(arguments: [(1, 1), (3, 7), (5, 8), (2, 9), (4, 31), (1, 1001), (300, 17)], [Float(1), 0.5, 2.5])
    func matchesReferenceAndDouble(_ size: (outer: Int, axis: Int), beta: Float) {
        var random = Random(state: UInt64(size.outer * 1_000 + size.axis))
        let input = random.floats(size.outer * size.axis, -10, 10)
        var expected = [Float](repeating: .nan, count: input.count)
        var actual = [Float](repeating: .nan, count: input.count)
        Reference.softmax(input: input, output: &expected, outerCount: size.outer, axisSize: size.axis, beta: beta)
        Softmax.run(
            input: input, output: &actual, outerCount: size.outer, axisSize: size.axis, beta: beta,
            pool: ThreadPool(threadCount: 2))
        let tolerance = 2e-6 * Float(size.axis).squareRoot()
        expectClose(actual, expected, tolerance: tolerance)
        var exact = [Float]()
        for row in 0..<size.outer {
            let x = input[(row * size.axis)..<((row + 1) * size.axis)].map { Double($0) * Double(beta) }
            let m = x.max()!
            let e = x.map { Glibc.exp($0 - m) }
            let sum = e.reduce(0, +)
            exact += e.map { Float($0 / sum) }
        }
        expectClose(expected, exact, tolerance: tolerance, "reference vs double")
    }

    @Test func referenceHandComputed() {
        // exp(0) : exp(ln 3) = 1 : 3; equal huge logits split evenly without overflow.
        let input: [Float] = [0, Float(Glibc.log(3.0)), 1_000, 1_000]
        var output = [Float](repeating: .nan, count: 4)
        Reference.softmax(input: input, output: &output, outerCount: 2, axisSize: 2, beta: 1)
        expectClose(output, [0.25, 0.75, 0.5, 0.5], tolerance: 1e-6)
    }

    @Test func runsInPlace() {
        var values: [Float] = [1, 2, 3, 4, 4, 3, 2, 1]
        var expected = [Float](repeating: 0, count: 8)
        Reference.softmax(input: values, output: &expected, outerCount: 2, axisSize: 4, beta: 1)
        values.withUnsafeMutableBufferPointer { buffer in
            Softmax.run(
                input: buffer.baseAddress!, output: buffer.baseAddress!, outerCount: 2, axisSize: 4, beta: 1,
                pool: .serial)
        }
        expectClose(values, expected, tolerance: 1e-6)
    }
}
