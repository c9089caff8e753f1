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

    /// The box kept at position `index` (below `count`).
    func box(at index: Int) -> RelativeRect {
        precondition(index >= 0 && index < count, "RetainedRects.box(at:): \(index) of \(count)")
        return RelativeRect(xMin: xMin[index], yMin: yMin[index], xMax: xMax[index], yMax: yMax[index])
    }

    /// Doubles the columns (at least one lane group); they stay whole lane groups, initialized past `count` (zeros), so
    /// that the last group's loads read initialized memory.
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

    /// Whether some kept box, from the `first` one kept on, has a similarity with `candidate` strictly greater than
    /// `threshold`.
    func anyOverlaps(
        _ candidate: RelativeRect, type: NonMaxSuppressionOptions.OverlapType, threshold: Float, from first: Int = 0
    ) -> Bool {
        guard count > first else { return false }
        // An empty candidate intersects nothing: every similarity is 0.
        if candidate.isEmpty { return 0 > threshold }
        let test = CandidateLanes(candidate, threshold: threshold)
        // Whole lane groups from the one holding `first`; lanes before `first` and past `count` are masked off.
        var start = first - first % Lanes.scalarCount
        while start < count {
            // The storage is padded to whole lane groups, so the loads stay inside it.
            var hits = test.hits(
                xMin: Self.load(xMin, start), yMin: Self.load(yMin, start), xMax: Self.load(xMax, start),
                yMax: Self.load(yMax, start), area: Self.load(area, start), type: type)
            if start + Lanes.scalarCount > count {
                hits .&= Self.laneIndices .< Int32(truncatingIfNeeded: count - start)
            }
            if start < first {
                hits .&= Self.laneIndices .>= Int32(truncatingIfNeeded: first - start)
            }
            if Self.anyLane(hits) { return true }
            start += Lanes.scalarCount
        }
        return false
    }

    /// Whether any lane of `mask` is set: an OR of its two halves and of the result's two 64-bit words (the standard
    /// library's `any(_:)` reduces lane by lane through a generic call).
    @inline(__always)
    static func anyLane(_ mask: SIMDMask<SIMD8<Int32>>) -> Bool {
        let lanes = unsafeBitCast(mask, to: SIMD8<Int32>.self)
        let words = unsafeBitCast(lanes.lowHalf | lanes.highHalf, to: SIMD2<UInt64>.self)
        return words[0] | words[1] != 0
    }

    /// Whether every lane of `mask` is set.
    @inline(__always)
    static func allLanes(_ mask: SIMDMask<SIMD8<Int32>>) -> Bool {
        let lanes = unsafeBitCast(mask, to: SIMD8<Int32>.self)
        let words = unsafeBitCast(lanes.lowHalf & lanes.highHalf, to: SIMD2<UInt64>.self)
        return words[0] & words[1] == .max
    }

    /// A non-empty candidate and a threshold, broadcast to every lane, to test against `Lanes.scalarCount` kept boxes
    /// at a time.
    struct CandidateLanes {
        let xMin: Lanes
        let yMin: Lanes
        let xMax: Lanes
        let yMax: Lanes
        let area: Lanes
        let limit: Lanes
        /// `RelativeRect.empty.area`, the area of an empty intersection.
        let emptyArea = Lanes(repeating: RelativeRect.empty.area)

        init(_ candidate: RelativeRect, threshold: Float) {
            xMin = Lanes(repeating: candidate.xMin)
            yMin = Lanes(repeating: candidate.yMin)
            xMax = Lanes(repeating: candidate.xMax)
            yMax = Lanes(repeating: candidate.yMax)
            area = Lanes(repeating: candidate.area)
            limit = Lanes(repeating: threshold)
        }

        /// The first lane whose kept box is more similar to the candidate than the threshold, for a finite
        /// candidate whose edges are ordered (`xMin ≤ xMax`, `yMin ≤ yMax`), a threshold ≥ 0, and lanes that each
        /// hold such a box or `RelativeRect.empty`.
        ///
        /// The same float operations as `hits`, without what those conditions make constant: two ordered boxes
        /// that are not separate have an ordered intersection, and an empty lane is separate from a finite candidate.
        @inline(__always)
        func firstHitAmongOrderedBoxes(
            xMin x0: Lanes, yMin y0: Lanes, xMax x1: Lanes, yMax y1: Lanes, area keptArea: Lanes,
            type: NonMaxSuppressionOptions.OverlapType
        ) -> Int? {
            let separate = (xMax .< x0) .| (x1 .< xMin) .| (yMax .< y0) .| (y1 .< yMin)
            if RetainedRects.allLanes(separate) { return nil }
            let lowX = x0.replacing(with: xMin, where: x0 .< xMin)
            let lowY = y0.replacing(with: yMin, where: y0 .< yMin)
            let highX = x1.replacing(with: xMax, where: xMax .< x1)
            let highY = y1.replacing(with: yMax, where: yMax .< y1)
            let intersection = (highX - lowX) * (highY - lowY)
            let normalization: Lanes
            switch type {
            case .jaccard:
                normalization =
                    (x1.replacing(with: xMax, where: x1 .< xMax) - x0.replacing(with: xMin, where: xMin .< x0))
                    * (y1.replacing(with: yMax, where: y1 .< yMax) - y0.replacing(with: yMin, where: yMin .< y0))
            case .modifiedJaccard:
                normalization = area
            case .intersectionOverUnion:
                normalization = keptArea + area - intersection
            }
            // A similarity of 0 (separate, or no positive normalization) is not above a threshold ≥ 0.
            let hits = (intersection / normalization .> limit) .& (normalization .> 0) .& .!separate
            guard RetainedRects.anyLane(hits) else { return nil }
            for lane in 0..<Lanes.scalarCount where hits[lane] { return lane }
            return nil
        }

        /// The lanes whose kept box is more similar to the candidate than the threshold.
        @inline(__always)
        func hits(
            xMin x0: Lanes, yMin y0: Lanes, xMax x1: Lanes, yMax y1: Lanes, area keptArea: Lanes,
            type: NonMaxSuppressionOptions.OverlapType
        ) -> SIMDMask<SIMD8<Int32>> {
            let separate = (x0 .> x1) .| (y0 .> y1) .| (xMax .< x0) .| (x1 .< xMin) .| (yMax .< y0) .| (y1 .< yMin)
            // `std::max(kept, candidate)` for the low corner, `std::min` for the high one.
            let lowX = x0.replacing(with: xMin, where: x0 .< xMin)
            let lowY = y0.replacing(with: yMin, where: y0 .< yMin)
            let highX = x1.replacing(with: xMax, where: xMax .< x1)
            let highY = y1.replacing(with: yMax, where: yMax .< y1)
            let intersection = RetainedRects.orderedArea(lowX, lowY, highX, highY)
                .replacing(with: emptyArea, where: (lowX .> highX) .| (lowY .> highY))
            let normalization: Lanes
            switch type {
            case .jaccard:
                normalization = RetainedRects.orderedArea(
                    x0.replacing(with: xMin, where: xMin .< x0), y0.replacing(with: yMin, where: yMin .< y0),
                    x1.replacing(with: xMax, where: x1 .< xMax), y1.replacing(with: yMax, where: y1 .< yMax))
            case .modifiedJaccard:
                normalization = area
            case .intersectionOverUnion:
                normalization = keptArea + area - intersection
            }
            let similarity = (intersection / normalization)
                .replacing(with: 0, where: .!(normalization .> 0) .| separate)
            return similarity .> limit
        }
    }

    typealias Lanes = SIMD8<Float>

    private static let laneIndices = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7)

    @inline(__always)
    private static func load(_ column: UnsafeMutablePointer<Float>, _ start: Int) -> Lanes {
        UnsafeRawPointer(column + start).loadUnaligned(as: Lanes.self)
    }

    /// The area of `RelativeRect(corner: (x0, y0), corner: (x1, y1))`, which orders each axis with `<=`.
    @inline(__always)
    fileprivate static func orderedArea(_ x0: Lanes, _ y0: Lanes, _ x1: Lanes, _ y1: Lanes) -> Lanes {
        let xSwapped = .!(x0 .<= x1)
        let ySwapped = .!(y0 .<= y1)
        let width = x1.replacing(with: x0, where: xSwapped) - x0.replacing(with: x1, where: xSwapped)
        let height = y1.replacing(with: y0, where: ySwapped) - y0.replacing(with: y1, where: ySwapped)
        return width * height
    }
}
