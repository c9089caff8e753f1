import PureVisionKernels
import PureVisionTestSupport
import Testing

/// GATHER / UNPACK data movement and REDUCE_MAX / REDUCE_MIN: the contiguous-block reduction against the general
/// reference, and both copies against index arithmetic written out, on odd shapes.
@Suite struct AxisCopyAndExtremumTests {
    static func values(_ count: Int, seed: UInt64) -> [Float] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in Float(Int(random.next() % 2001) - 1000) / 37 }
    }

    @Test(arguments: [[7], [1, 21], [3, 5, 2], [2, 1, 9, 3], [4, 6, 1, 5]])
    func blockReductionMatchesTheReference(shape: [Int]) {
        let input = Self.values(shape.reduce(1, *), seed: UInt64(shape.count * 31 + shape[0]))
        for first in shape.indices {
            for last in first..<shape.count {
                let axes = Array(first...last)
                let outer = shape[..<first].reduce(1, *)
                let reduced = shape[first...last].reduce(1, *)
                let inner = shape[(last + 1)...].reduce(1, *)
                for extremum in [ReductionExtremum.maximum, .minimum] {
                    var expected = [Float](repeating: .nan, count: outer * inner)
                    var actual = expected
                    input.withUnsafeBufferPointer { x in
                        Reference.reduceExtremum(
                            extremum, input: x.baseAddress!, inputShape: shape, axes: axes, output: &expected)
                        Reduction.extremum(
                            extremum, input: x.baseAddress!, outerCount: outer, reducedCount: reduced,
                            innerCount: inner, output: &actual)
                    }
                    #expect(actual == expected, "\(shape) axes \(axes) \(extremum)")
                    // Written out: each output is the extremum of its slice.
                    for o in 0..<outer {
                        for i in 0..<inner {
                            let slice = (0..<reduced).map { input[(o * reduced + $0) * inner + i] }
                            #expect(expected[o * inner + i] == (extremum == .maximum ? slice.max() : slice.min()))
                        }
                    }
                }
            }
        }
    }

    @Test func reductionsSkipNaNAndStartFromTheLimits() {
        let input: [Float] = [.nan, 3, -2, .nan]
        var output: [Float] = [0, 0]
        Reference.reduceExtremum(.maximum, input: input, inputShape: [4], axes: [0], output: &output)
        #expect(output[0] == 3)
        Reference.reduceExtremum(.minimum, input: input, inputShape: [4], axes: [0], output: &output)
        #expect(output[0] == -2)
        Reduction.extremum(.maximum, input: input, outerCount: 1, reducedCount: 0, innerCount: 2, output: &output)
        #expect(output == [-Float.greatestFiniteMagnitude, -Float.greatestFiniteMagnitude])
    }

    @Test(arguments: [(1, 21, 3), (3, 7, 5), (2, 1, 1), (5, 4, 13)])
    func gatherAndUnpackMoveTheRightElements(outer: Int, axis: Int, inner: Int) {
        let input = Self.values(outer * axis * inner, seed: UInt64(outer * 100 + axis * 10 + inner))
        let indices = (0..<(axis + 2)).map { ($0 * 5 + 1) % axis }
        var gathered = [Float](repeating: .nan, count: outer * indices.count * inner)
        input.withUnsafeBytes { x in
            gathered.withUnsafeMutableBytes { y in
                AxisCopy.gather(
                    input: x.baseAddress!, outerCount: outer, axisCount: axis, innerBytes: inner * 4, indices: indices,
                    output: y.baseAddress!)
            }
        }
        for o in 0..<outer {
            for (j, index) in indices.enumerated() {
                for i in 0..<inner {
                    #expect(gathered[(o * indices.count + j) * inner + i] == input[(o * axis + index) * inner + i])
                }
            }
        }
        let buffers = (0..<axis).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: max(1, outer * inner)) }
        defer { for buffer in buffers { buffer.deallocate() } }
        input.withUnsafeBytes { x in
            AxisCopy.unpack(
                input: x.baseAddress!, outerCount: outer, axisCount: axis, innerBytes: inner * 4,
                outputs: buffers.map { UnsafeMutableRawPointer($0) })
        }
        for k in 0..<axis {
            let part = Array(UnsafeBufferPointer(start: buffers[k], count: outer * inner))
            for o in 0..<outer {
                for i in 0..<inner { #expect(part[o * inner + i] == input[(o * axis + k) * inner + i]) }
            }
        }
    }
}
