/// The kept boxes of greedy suppression, bucketed by a uniform grid so that a candidate is compared only with the
/// kept boxes near it (an EfficientDet frame keeps about 2,000 of 19,206 boxes: all pairs would be 20 million
/// similarities a frame).
///
/// Exact, not approximate: with a threshold ≥ 0, a kept box can suppress a candidate only when their similarity is
/// above 0, which needs the two (non-empty) boxes to intersect, edges included. Two finite boxes that intersect
/// share a point, and the cell of that point lies in both boxes' cell ranges, because the cell index
/// `⌊(x − origin) · scale⌋`, clamped to the grid, never decreases as x grows. So a finite box goes into every cell
/// its range covers and is found from every candidate it intersects. Kept boxes that are empty cannot suppress and
/// are left out; those with a NaN or infinite coordinate are compared with every candidate. A candidate with such a
/// coordinate, or a negative threshold (every similarity of 0 then suppresses), is compared with all kept boxes.
final class RetainedRectGrid {
    private let threshold: Float
    private let type: NonMaxSuppressionOptions.OverlapType
    private let side: Int
    private let origin: (x: Float, y: Float)
    private let scale: (x: Float, y: Float)
    private var cells: [RetainedRects]
    /// Kept boxes with a NaN or infinite coordinate.
    private let unplaced = RetainedRects()
    /// Every kept box, for candidates the grid cannot place and for negative thresholds.
    private let all = RetainedRects()

    /// A grid over the extent of `rects` (their finite coordinates) for suppression of the given type and threshold;
    /// about 16 × 16 cells for many boxes, one cell for a few.
    init(covering rects: [RelativeRect], type: NonMaxSuppressionOptions.OverlapType, threshold: Float) {
        self.threshold = threshold
        self.type = type
        var low = (x: Float.infinity, y: Float.infinity)
        var high = (x: -Float.infinity, y: -Float.infinity)
        for rect in rects {
            for x in [rect.xMin, rect.xMax] where x.isFinite {
                low.x = min(low.x, x)
                high.x = max(high.x, x)
            }
            for y in [rect.yMin, rect.yMax] where y.isFinite {
                low.y = min(low.y, y)
                high.y = max(high.y, y)
            }
        }
        side = rects.count >= 256 ? 16 : 1
        origin = (low.x.isFinite ? low.x : 0, low.y.isFinite ? low.y : 0)
        let extent = (x: high.x - origin.x, y: high.y - origin.y)
        scale = (
            extent.x.isFinite && extent.x > 0 ? Float(side) / extent.x : 0,
            extent.y.isFinite && extent.y > 0 ? Float(side) / extent.y : 0
        )
        cells = (0..<(side * side)).map { _ in RetainedRects() }
    }

    /// Whether a kept box's similarity with `candidate` is above the threshold.
    func suppresses(_ candidate: RelativeRect) -> Bool {
        guard threshold >= 0, candidate.isFinite else {
            return all.anyOverlaps(candidate, type: type, threshold: threshold)
        }
        if candidate.isEmpty { return false }
        if unplaced.anyOverlaps(candidate, type: type, threshold: threshold) { return true }
        let (columns, rows) = range(of: candidate)
        for row in rows {
            for column in columns
            where cells[row * side + column].anyOverlaps(candidate, type: type, threshold: threshold) {
                return true
            }
        }
        return false
    }

    /// Keeps `rect`.
    func append(_ rect: RelativeRect) {
        all.append(rect)
        if threshold < 0 || rect.isEmpty { return }
        guard rect.isFinite else {
            unplaced.append(rect)
            return
        }
        let (columns, rows) = range(of: rect)
        for row in rows {
            for column in columns { cells[row * side + column].append(rect) }
        }
    }

    /// The cells a finite, non-empty box covers.
    private func range(of rect: RelativeRect) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>) {
        (
            cell(rect.xMin, origin.x, scale.x)...cell(rect.xMax, origin.x, scale.x),
            cell(rect.yMin, origin.y, scale.y)...cell(rect.yMax, origin.y, scale.y)
        )
    }

    /// `⌊(value − origin) · scale⌋` clamped to the grid: non-decreasing in `value`.
    private func cell(_ value: Float, _ origin: Float, _ scale: Float) -> Int {
        let position = ((value - origin) * scale).rounded(.down)
        if !(position > 0) { return 0 }
        return position >= Float(side - 1) ? side - 1 : Int(position)
    }
}

extension RelativeRect {
    /// Whether all four coordinates are finite.
    var isFinite: Bool { xMin.isFinite && yMin.isFinite && xMax.isFinite && yMax.isFinite }
}
