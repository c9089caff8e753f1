import PureVisionKernels
import Testing

struct PadTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var shape: [Int]
        var paddings: [[Int]]
        var testDescription: String { "\(shape) pad \(paddings)" }
    }

    static let cases: [Case] = [
        Case(shape: [1, 5, 7, 3], paddings: [[0, 0], [1, 1], [1, 1], [0, 0]]),
        Case(shape: [2, 3, 3, 17], paddings: [[0, 0], [0, 2], [2, 0], [0, 0]]),
        Case(shape: [1, 4, 4, 8], paddings: [[0, 0], [0, 0], [0, 0], [0, 9]]),
        Case(shape: [7], paddings: [[3, 1]]),
        Case(shape: [2, 3], paddings: [[1, 2], [0, 1]]),
        Case(shape: [1, 2, 1, 3, 2, 1], paddings: [[1, 0], [0, 1], [2, 2], [0, 0], [1, 0], [0, 3]]),
        Case(shape: [3, 0, 2], paddings: [[0, 0], [1, 1], [0, 0]]),
    ]

    /// The padded output computed independently: each output index maps back to an input index or the pad value.
    static func naive<T>(_ input: [T], shape: [Int], paddings: [[Int]], value: T) -> [T] {
        let outputShape = zip(shape, paddings).map { $0 + $1[0] + $1[1] }
        let count = outputShape.reduce(1, *)
        return (0..<count).map { flat in
            var remainder = flat
            var source = 0
            var sourceStride = 1
            var inside = true
            for axis in stride(from: shape.count - 1, through: 0, by: -1) {
                let i = remainder % outputShape[axis] - paddings[axis][0]
                remainder /= outputShape[axis]
                if i < 0 || i >= shape[axis] { inside = false }
                source += i * sourceStride
                sourceStride *= shape[axis]
            }
            return inside ? input[source] : value
        }
    }

    @Test(arguments: cases)
    func floatMatchesNaive(_ pad: Case) {
        var random = Random(state: UInt64(pad.shape.reduce(3, *)))
        let input = random.floats(pad.shape.reduce(1, *))
        let expected = Self.naive(input, shape: pad.shape, paddings: pad.paddings, value: -7.5)
        var output = [Float](repeating: .nan, count: expected.count)
        Pad.run(
            input: input, inputShape: pad.shape, paddings: pad.paddings.map { ($0[0], $0[1]) }, padValue: -7.5,
            output: &output)
        #expect(output == expected)
    }

    @Test(arguments: cases)
    func bytesMatchNaive(_ pad: Case) {
        let count = pad.shape.reduce(1, *)
        let paddings = pad.paddings.map { (before: $0[0], after: $0[1]) }
        check(UInt8.self, (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7) }, fill: 200)
        check(Int16.self, (0..<count).map { Int16($0) - 100 }, fill: -1)
        check(UInt64.self, (0..<count).map { UInt64($0) << 33 | 5 }, fill: 0xDEAD_BEEF_0000_0001)

        func check<T: Equatable>(_ type: T.Type, _ input: [T], fill: T) {
            let expected = Self.naive(input, shape: pad.shape, paddings: pad.paddings, value: fill)
            var output = [T](repeating: fill, count: expected.count)
            output.withUnsafeMutableBytes { destination in
                withUnsafeBytes(of: fill) { pattern in
                    input.withUnsafeBytes { source in
                        Pad.run(
                            inputBytes: source.baseAddress ?? UnsafeRawPointer(bitPattern: 8)!,
                            elementByteWidth: MemoryLayout<T>.stride, inputShape: pad.shape, paddings: paddings,
                            padValueBytes: pattern.baseAddress!, output: destination.baseAddress!)
                    }
                }
            }
            #expect(output == expected, "\(T.self)")
        }
    }

    @Test func handComputed() {
        // [[1, 2], [3, 4]] with one row above, one column on each side, padded with 0.
        var output = [Float](repeating: .nan, count: 12)
        Pad.run(input: [1, 2, 3, 4], inputShape: [2, 2], paddings: [(1, 0), (1, 1)], padValue: 0, output: &output)
        #expect(output == [0, 0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0])
    }
}
