import PureVisionKernels
import Testing

struct StridedSliceTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var shape: [Int]
        var begin: [Int]
        var strides: [Int]
        var output: [Int]
        var testDescription: String { "\(shape) begin \(begin) strides \(strides) → \(output)" }
    }

    static let cases: [Case] = [
        Case(shape: [1, 5, 7, 3], begin: [0, 1, 0, 0], strides: [1, 2, 3, 1], output: [1, 2, 3, 3]),
        Case(shape: [2, 9, 17], begin: [1, 8, 16], strides: [1, -1, -2], output: [1, 9, 9]),
        Case(shape: [31], begin: [30], strides: [-1], output: [31]),
        Case(shape: [4, 6], begin: [0, 2], strides: [1, 1], output: [4, 3]),
        Case(shape: [3, 4, 5], begin: [2, 0, 4], strides: [1, 1, 1], output: [1, 4, 1]),
        Case(
            shape: [2, 3, 1, 4, 2, 3], begin: [1, 2, 0, 1, 0, 2], strides: [1, -1, 1, 2, 1, -1],
            output: [1, 3, 1, 2, 2, 3]),
        Case(shape: [5, 5], begin: [0, 0], strides: [1, 1], output: [0, 5]),
    ]

    /// Independent computation: for each output element, the input index from begin + i · stride per dimension.
    static func naive<T>(_ input: [T], _ slice: Case) -> [T] {
        let count = slice.output.reduce(1, *)
        return (0..<count).map { flat in
            var remainder = flat
            var source = 0
            var sourceStride = 1
            for axis in stride(from: slice.shape.count - 1, through: 0, by: -1) {
                let i = remainder % slice.output[axis]
                remainder /= slice.output[axis]
                source += (slice.begin[axis] + i * slice.strides[axis]) * sourceStride
                sourceStride *= slice.shape[axis]
            }
            return input[source]
        }
    }

    @Test(arguments: cases)
    func matchesNaiveForEveryWidth(_ slice: Case) {
        let count = slice.shape.reduce(1, *)
        check((0..<count).map { Float($0) + 0.5 })
        check((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        check((0..<count).map { Int16($0) - 300 })
        check((0..<count).map { Int64($0) << 40 })
        check(
            (0..<count).map { (UInt8(truncatingIfNeeded: $0), UInt16(truncatingIfNeeded: $0 * 3)) }.map {
                Triple(a: $0.0, b: $0.1)
            })

        func check<T: Equatable>(_ input: [T]) {
            let expected = Self.naive(input, slice)
            var output = [T](repeating: input[0], count: expected.count)
            input.withUnsafeBytes { source in
                output.withUnsafeMutableBytes { destination in
                    StridedSlice.run(
                        input: source.baseAddress!, inputShape: slice.shape, elementByteWidth: MemoryLayout<T>.stride,
                        begin: slice.begin, strides: slice.strides, outputShape: slice.output,
                        output: destination.baseAddress ?? UnsafeMutableRawPointer(bitPattern: 8)!)
                }
            }
            #expect(output == expected, "\(T.self)")
        }
    }

    /// A 4-byte element of odd composition, to exercise widths copied without a matching integer type.
    struct Triple: Equatable {
        var a: UInt8
        var b: UInt16
    }

    @Test func handComputed() {
        // Every second column of [[0, 1, 2, 3], [4, 5, 6, 7]] backwards, last row only.
        let input: [Float] = [0, 1, 2, 3, 4, 5, 6, 7]
        var output = [Float](repeating: .nan, count: 2)
        input.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { destination in
                StridedSlice.run(
                    input: source.baseAddress!, inputShape: [2, 4], elementByteWidth: 4, begin: [1, 3],
                    strides: [1, -2], outputShape: [1, 2], output: destination.baseAddress!)
            }
        }
        #expect(output == [7, 5])
    }
}
