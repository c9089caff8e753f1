import PureVisionKernels
import Testing

/// `Reference.sum` (TFLite SUM) against a double-precision sum on odd shapes, and against `Reference.mean` times the
/// reduced count.
struct SumTests {
    static let cases: [(shape: [Int], axes: [Int])] = [
        ([2, 3, 5, 7], [3]), ([2, 3, 5, 7], [0, 2]), ([2, 3, 5, 7], [1, 3]), ([2, 3, 5, 7], [0, 1, 2, 3]),
        ([2, 3, 5, 7], []), ([17], [0]), ([1, 146, 1], [1]), ([4, 1, 3, 2, 5, 3], [1, 4]),
    ]

    @Test func matchesADoubleSum() {
        for (shape, axes) in Self.cases {
            let count = shape.reduce(1, *)
            let input = (0..<count).map { Float(($0 * 7919) % 113) / 17 - 3 }
            let outputShape = shape.enumerated().filter { !axes.contains($0.offset) }.map(\.element)
            let outputCount = outputShape.reduce(1, *)
            var output = [Float](repeating: .nan, count: max(outputCount, 1))
            input.withUnsafeBufferPointer { x in
                output.withUnsafeMutableBufferPointer { y in
                    guard let source = x.baseAddress, let destination = y.baseAddress else { return }
                    Reference.sum(input: source, inputShape: shape, axes: axes, output: destination)
                }
            }
            // The expected sums, indexing the input directly.
            var expected = [Double](repeating: 0, count: max(outputCount, 1))
            var strides = [Int](repeating: 1, count: shape.count)
            for axis in stride(from: shape.count - 2, through: 0, by: -1) {
                strides[axis] = strides[axis + 1] * shape[axis + 1]
            }
            for index in 0..<count {
                var outputIndex = 0
                for axis in shape.indices where !axes.contains(axis) {
                    outputIndex = outputIndex * shape[axis] + (index / strides[axis]) % shape[axis]
                }
                expected[outputIndex] += Double(input[index])
            }
            for i in 0..<outputCount {
                #expect(
                    abs(Double(output[i]) - expected[i]) <= 1e-4 * max(1, abs(expected[i])), "\(shape) \(axes) [\(i)]")
            }
        }
    }
}
