/// The boxes greedy suppression has kept so far, as columns (structure of arrays), so that a candidate is tested
/// against all of them in one vectorizable pass.
///
/// Each lane computes exactly the float operations of `NonMaxSuppression.similarity(kept, candidate, type)`
/// (the same `std::min` / `std::max` selects, the same products and the same division, with selects where the scalar
/// code branches), so the answer equals the scalar loop's.
final class RetainedRects {
    private var capacity = 0
    private var xMin = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    private var yMin = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    private var xMax = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    private var yMax = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    private var area = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    private(set) var count = 0

    deinit {
        for column in [xMin, yMin, xMax, yMax, area] { column.deallocate() }
    }

    /// Keeps `rect`.
    func append(_ rect: RelativeRect) {
        if count == capacity { grow() }
        xMin[count] = rect.xMin
        yMin[count] = rect.yMin
        xMax[count] = rect.xMax
        yMax[count] = rect.yMax
        area[count] = rect.area
        count += 1
    }

    /// Doubles the columns (at least one lane group); they stay whole lane groups, zero-filled past `count`, so that
    /// the last group's loads read initialized memory.
    private func grow() {
        let newCapacity = max(Lanes.scalarCount, capacity * 2)
        func moved(_ column: UnsafeMutablePointer<Float>) -> UnsafeMutablePointer<Float> {
            let larger = UnsafeMutablePointer<Float>.allocate(capacity: newCapacity)
            larger.moveInitialize(from: column, count: capacity)
            (larger + capacity).initialize(repeating: 0, count: newCapacity - capacity)
            column.deallocate()
            return larger
        }
        xMin = moved(xMin)
        yMin = moved(yMin)
        xMax = moved(xMax)
        yMax = moved(yMax)
        area = moved(area)
        capacity = newCapacity
    }

    /// Whether some kept box's similarity with `candidate` is strictly greater than `threshold`.
    func anyOverlaps(
        _ candidate: RelativeRect, type: NonMaxSuppressionOptions.OverlapType, threshold: Float
    ) -> Bool {
        guard count > 0 else { return false }
        // An empty candidate intersects nothing: every similarity is 0.
        if candidate.isEmpty { return 0 > threshold }
        let c = (
            xMin: Lanes(repeating: candidate.xMin), yMin: Lanes(repeating: candidate.yMin),
            xMax: Lanes(repeating: candidate.xMax), yMax: Lanes(repeating: candidate.yMax),
            area: Lanes(repeating: candidate.area)
        )
        let emptyArea = Lanes(repeating: RelativeRect.empty.area)
        let limit = Lanes(repeating: threshold)
        var start = 0
        while start < count {
            // The storage is padded to whole lane groups; lanes past `count` are masked off below.
            let x0 = Self.load(xMin, start)
            let y0 = Self.load(yMin, start)
            let x1 = Self.load(xMax, start)
            let y1 = Self.load(yMax, start)
            let separate =
                (x0 .> x1) .| (y0 .> y1) .| (c.xMax .< x0) .| (x1 .< c.xMin) .| (c.yMax .< y0) .| (y1 .< c.yMin)
            // `std::max(kept, candidate)` for the low corner, `std::min` for the high one.
            let lowX = x0.replacing(with: c.xMin, where: x0 .< c.xMin)
            let lowY = y0.replacing(with: c.yMin, where: y0 .< c.yMin)
            let highX = x1.replacing(with: c.xMax, where: c.xMax .< x1)
            let highY = y1.replacing(with: c.yMax, where: c.yMax .< y1)
            let intersection = Self.orderedArea(lowX, lowY, highX, highY)
                .replacing(with: emptyArea, where: (lowX .> highX) .| (lowY .> highY))
            let normalization: Lanes
            switch type {
            case .jaccard:
                normalization = Self.orderedArea(
                    x0.replacing(with: c.xMin, where: c.xMin .< x0), y0.replacing(with: c.yMin, where: c.yMin .< y0),
                    x1.replacing(with: c.xMax, where: x1 .< c.xMax), y1.replacing(with: c.yMax, where: y1 .< c.yMax))
            case .modifiedJaccard:
                normalization = c.area
            case .intersectionOverUnion:
                normalization = Self.load(area, start) + c.area - intersection
            }
            let similarity = (intersection / normalization)
                .replacing(with: 0, where: .!(normalization .> 0) .| separate)
            var hits = similarity .> limit
            if start + Lanes.scalarCount > count {
                hits .&= Self.laneIndices .< Int32(truncatingIfNeeded: count - start)
            }
            if any(hits) { return true }
            start += Lanes.scalarCount
        }
        return false
    }

    typealias Lanes = SIMD8<Float>

    private static let laneIndices = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7)

    @inline(__always)
    private static func load(_ column: UnsafeMutablePointer<Float>, _ start: Int) -> Lanes {
        UnsafeRawPointer(column + start).loadUnaligned(as: Lanes.self)
    }

    /// The area of `RelativeRect(corner: (x0, y0), corner: (x1, y1))`, which orders each axis with `<=`.
    @inline(__always)
    private static func orderedArea(_ x0: Lanes, _ y0: Lanes, _ x1: Lanes, _ y1: Lanes) -> Lanes {
        let xSwapped = .!(x0 .<= x1)
        let ySwapped = .!(y0 .<= y1)
        let width = x1.replacing(with: x0, where: xSwapped) - x0.replacing(with: x1, where: xSwapped)
        let height = y1.replacing(with: y0, where: ySwapped) - y0.replacing(with: y1, where: ySwapped)
        return width * height
    }
}
