import PureVisionKernels
import Testing

struct ReductionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var shape: [Int]
        var axes: [Int]
        var testDescription: String { "shape\(shape) axes\(axes)" }
    }

    static let cases: [Case] = [
        // The NHWC global-average fast path, including enough work to split channel blocks over threads.
        Case(shape: [1, 7, 7, 1], axes: [1, 2]),
        Case(shape: [2, 3, 5, 17], axes: [1, 2]),
        Case(shape: [1, 1, 1, 9], axes: [1, 2]),
        Case(shape: [3, 9, 11, 31], axes: [1, 2]),
        Case(shape: [1, 7, 7, 1280], axes: [1, 2]),
        Case(shape: [2, 13, 17, 257], axes: [1, 2]),
        // General reductions.
        Case(shape: [2, 3, 5, 7], axes: [3]),
        Case(shape: [2, 3, 5, 7], axes: [0]),
        Case(shape: [2, 3, 5, 7], axes: [0, 3]),
        Case(shape: [2, 3, 5, 7], axes: [1, 3]),
        Case(shape: [2, 3, 5, 7], axes: [0, 1, 2, 3]),
        Case(shape: [2, 3, 5, 7], axes: []),
        Case(shape: [17], axes: [0]),
        Case(shape: [4, 1, 3, 2, 5, 3], axes: [1, 4]),
        Case(shape: [3, 8, 9], axes: [1]),
        // The last dimensions (contiguous runs, four outputs at a time): layer norms' shapes, a tail of 1–3 outputs.
        Case(shape: [1, 1, 97, 64], axes: [3]),
        Case(shape: [1, 146, 2], axes: [2]),
        Case(shape: [3, 8, 9], axes: [1, 2]),
        Case(shape: [7, 3, 2], axes: [2]),
    ]

    /// Independent computation: for every output coordinate, sum the matching input elements in Double.
    static func naiveMean(_ input: [Float], shape: [Int], axes: [Int]) -> [Float] {
        let keptAxes = shape.indices.filter { !axes.contains($0) }
        var sums = [Double](repeating: 0, count: keptAxes.reduce(1) { $0 * shape[$1] })
        var counts = [Int](repeating: 0, count: sums.count)
        for (flat, value) in input.enumerated() {
            var remainder = flat
            var coordinates = [Int](repeating: 0, count: shape.count)
            for axis in shape.indices.reversed() {
                coordinates[axis] = remainder % shape[axis]
                remainder /= shape[axis]
            }
            let outputIndex = keptAxes.reduce(0) { $0 * shape[$1] + coordinates[$1] }
            sums[outputIndex] += Double(value)
            counts[outputIndex] += 1
        }
        return zip(sums, counts).map { Float($0 / Double($1)) }
    }

    @Test(arguments: cases)
    func meanMatchesNaiveAndReference(_ c: Case) {
        var random = SplitMixSource(seed: UInt64(c.shape.reduce(1, *) * 31 + c.axes.count))
        let input = random.floats(c.shape.reduce(1, *))
        let expected = ReductionTests.naiveMean(input, shape: c.shape, axes: c.axes)
        let reducedCount = c.axes.reduce(1) { $0 * c.shape[$1] }
        let tolerance = 1e-6 * Float(reducedCount).squareRoot()
        var reference = [Float](repeating: .nan, count: expected.count)
        reference.withUnsafeMutableBufferPointer { out in
            guard let pointer = out.baseAddress else { return }
            Reference.mean(input: input, inputShape: c.shape, axes: c.axes, output: pointer)
        }
        expectNearlyEqual(reference, expected, tolerance: tolerance, "reference \(c)")
        // The optimized kernel is the twin of the reference with XNNPACK's scaling, bit for bit.
        var twin = [Float](repeating: .nan, count: expected.count)
        twin.withUnsafeMutableBufferPointer { out in
            guard let pointer = out.baseAddress else { return }
            Reference.mean(input: input, inputShape: c.shape, axes: c.axes, output: pointer, arithmetic: .xnnpack)
        }
        expectNearlyEqual(twin, expected, tolerance: tolerance, "reference times reciprocal \(c)")
        for pool in testPools {
            var actual = [Float](repeating: .nan, count: expected.count)
            actual.withUnsafeMutableBufferPointer { out in
                guard let pointer = out.baseAddress else { return }
                Reduction.mean(input: input, inputShape: c.shape, axes: c.axes, output: pointer, pool: pool)
            }
            #expect(actual.map(\.bitPattern) == twin.map(\.bitPattern), "\(c) threads=\(pool.threadCount)")
        }
    }

    /// Mean over H and W of a 1×2×2×2 tensor and over the last axis of a 2×3 matrix, by hand.
    @Test(arguments: [false, true])
    func handCheckedMeans(optimized: Bool) {
        func mean(_ input: [Float], _ shape: [Int], _ axes: [Int], count: Int) -> [Float] {
            var output = [Float](repeating: .nan, count: count)
            output.withUnsafeMutableBufferPointer { out in
                guard let pointer = out.baseAddress else { return }
                if optimized {
                    Reduction.mean(input: input, inputShape: shape, axes: axes, output: pointer, pool: .serial)
                } else {
                    Reference.mean(input: input, inputShape: shape, axes: axes, output: pointer)
                }
            }
            return output
        }
        // Channel 0 holds 1, 2, 3, 4 (mean 2.5); channel 1 holds 10, 20, 30, 40 (mean 25).
        #expect(mean([1, 10, 2, 20, 3, 30, 4, 40], [1, 2, 2, 2], [1, 2], count: 2) == [2.5, 25])
        #expect(mean([1, 2, 3, 4, 5, 9], [2, 3], [1], count: 2) == [2, 6])
        #expect(mean([1, 2, 3, 4, 5, 9], [2, 3], [0], count: 3) == [2.5, 3.5, 6])
        #expect(mean([1, 2, 3, 4, 5, 9], [2, 3], [0, 1], count: 1) == [4])
    }
}
