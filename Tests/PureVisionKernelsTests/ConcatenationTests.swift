import PureVisionKernels
import Testing

struct ConcatenationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var shapes: [[Int]]
        var axis: Int
        var testDescription: String { "\(shapes) axis \(axis)" }
    }

    @Test(
        arguments: [
            Case(shapes: [[1, 5, 7, 3], [1, 5, 7, 8], [1, 5, 7, 1]], axis: 3),
            Case(shapes: [[2, 3, 4, 17], [2, 1, 4, 17]], axis: 1),
            Case(shapes: [[2, 3, 9, 5], [2, 3, 2, 5], [2, 3, 1, 5], [2, 3, 31, 5]], axis: 2),
            Case(shapes: [[1, 4], [3, 4], [2, 4]], axis: 0),
            Case(shapes: [[6]], axis: 0),
            Case(shapes: [[2, 0, 3], [2, 4, 3]], axis: 1),
        ], [ClampRange.none, .relu6])
    func matchesNaive(_ concat: Case, clamp: ClampRange) {
        var random = Random(state: UInt64(concat.axis + 3 * concat.shapes.count))
        let inputs = concat.shapes.map { random.floats($0.reduce(1, *), -8, 8) }
        var outputShape = concat.shapes[0]
        outputShape[concat.axis] = concat.shapes.map { $0[concat.axis] }.reduce(0, +)
        // Naive: walk the output in order, choosing the input whose slice along the axis holds each element.
        var expected: [Float] = []
        let outer = outputShape[..<concat.axis].reduce(1, *)
        let inner = outputShape[(concat.axis + 1)...].reduce(1, *)
        for o in 0..<outer {
            for a in 0..<outputShape[concat.axis] {
                var which = 0
                var local = a
                while local >= concat.shapes[which][concat.axis] {
                    local -= concat.shapes[which][concat.axis]
                    which += 1
                }
                let size = concat.shapes[which][concat.axis]
                for i in 0..<inner { expected.append(clamp.apply(inputs[which][(o * size + local) * inner + i])) }
            }
        }
        var output = [Float](repeating: .nan, count: expected.count)
        withPointers(inputs) { pointers in
            Concatenation.run(
                inputs: pointers, inputShapes: concat.shapes, axis: concat.axis, output: &output, clamp: clamp)
        }
        #expect(output == expected)
    }

    @Test func handComputed() {
        var output = [Float](repeating: .nan, count: 10)
        let a: [Float] = [1, 2, 3, 4]
        let b: [Float] = [-5, 6, 7, 8, 9, 10]
        withPointers([a, b]) { pointers in
            Concatenation.run(
                inputs: pointers, inputShapes: [[2, 2], [2, 3]], axis: 1, output: &output, clamp: .relu)
        }
        #expect(output == [1, 2, 0, 6, 7, 3, 4, 8, 9, 10])
    }

    func withPointers(_ arrays: [[Float]], _ body: ([UnsafePointer<Float>]) -> Void) {
        let buffers = arrays.map { array in
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: max(1, array.count))
            buffer.initialize(from: array, count: array.count)
            return buffer
        }
        defer { for buffer in buffers { buffer.deallocate() } }
        body(buffers.map { UnsafePointer($0) })
    }
}
