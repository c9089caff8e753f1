import PureVisionKernels
import Testing

struct TransposeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var shape: [Int]
        var permutation: [Int]
        var testDescription: String { "\(shape) perm \(permutation)" }
    }

    static let cases: [Case] = [
        Case(shape: [3, 7], permutation: [1, 0]),
        Case(shape: [1, 5, 7, 3], permutation: [0, 3, 1, 2]),
        Case(shape: [2, 5, 7, 9], permutation: [0, 2, 1, 3]),
        Case(shape: [2, 3, 4, 5, 6], permutation: [4, 2, 0, 3, 1]),
        Case(shape: [17], permutation: [0]),
        Case(shape: [2, 1, 3, 1, 2, 2], permutation: [5, 4, 3, 2, 1, 0]),
        Case(shape: [3, 0, 2], permutation: [2, 0, 1]),
    ]

    static func naive<T>(_ input: [T], _ transpose: Case) -> [T] {
        let outputShape = transpose.permutation.map { transpose.shape[$0] }
        let count = outputShape.reduce(1, *)
        return (0..<count).map { flat in
            var remainder = flat
            var index = [Int](repeating: 0, count: outputShape.count)
            for axis in stride(from: outputShape.count - 1, through: 0, by: -1) {
                index[axis] = remainder % outputShape[axis]
                remainder /= outputShape[axis]
            }
            var sourceIndex = [Int](repeating: 0, count: outputShape.count)
            for (k, p) in transpose.permutation.enumerated() { sourceIndex[p] = index[k] }
            var source = 0
            for (axis, i) in sourceIndex.enumerated() { source = source * transpose.shape[axis] + i }
            return input[source]
        }
    }

    @Test(arguments: cases)
    func matchesNaiveForEveryWidth(_ transpose: Case) {
        let count = transpose.shape.reduce(1, *)
        check((0..<count).map { Float($0) * 0.25 }, fill: .nan)
        check((0..<count).map { UInt8(truncatingIfNeeded: $0) }, fill: 255)
        check((0..<count).map { UInt16($0) }, fill: 9_999)
        check((0..<count).map { Int64($0) * -3 }, fill: 1)

        func check<T: Equatable>(_ input: [T], fill: T) {
            let expected = Self.naive(input, transpose)
            var output = [T](repeating: fill, count: expected.count)
            input.withUnsafeBytes { source in
                output.withUnsafeMutableBytes { destination in
                    Transpose.run(
                        input: source.baseAddress ?? UnsafeRawPointer(bitPattern: 8)!, inputShape: transpose.shape,
                        permutation: transpose.permutation, elementByteWidth: MemoryLayout<T>.stride,
                        output: destination.baseAddress ?? UnsafeMutableRawPointer(bitPattern: 8)!)
                }
            }
            #expect(output == expected, "\(T.self)")
        }
    }

    @Test func handComputed() {
        let input: [Float] = [1, 2, 3, 4, 5, 6]
        var output = [Float](repeating: .nan, count: 6)
        input.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { destination in
                Transpose.run(
                    input: source.baseAddress!, inputShape: [2, 3], permutation: [1, 0], elementByteWidth: 4,
                    output: destination.baseAddress!)
            }
        }
        #expect(output == [1, 4, 2, 5, 3, 6])
    }
}
