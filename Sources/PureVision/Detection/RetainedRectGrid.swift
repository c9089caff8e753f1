/// The kept boxes of greedy suppression, bucketed so that a candidate is compared only with the kept boxes that
/// could suppress it (an EfficientDet frame keeps about 2,000 of 19,206 boxes: all pairs would be 20 million
/// similarities a frame).
///
/// Exact, not approximate. The buckets are the cells of uniform grids over the boxes' extent:
/// - With a threshold ≥ 0, a kept box can suppress a candidate only when their similarity is above 0, which needs the
///   two (non-empty) boxes to intersect, edges included. Two finite boxes that intersect share a point, and the cell
///   of that point lies in both boxes' cell ranges, because the cell index `⌊(x − origin) · scale⌋`, clamped to the
///   grid, never decreases as x grows. So a finite box goes into every cell its range covers and is found from every
///   candidate it intersects.
/// - For intersection over union with a threshold t > 0 and many boxes there is one grid per octave of box area, with
///   cells about as large as its boxes. `IoU ≤ min(area) / max(area)`, and in float32 (areas between 2⁻¹⁰⁰ and 2¹⁰⁰,
///   every operation within half an ulp, each one monotonic) the computed IoU is at most that ratio times
///   (1 + 2⁻²¹): the intersection's computed area is at most either box's and the union's is at least the larger area
///   times (1 − 3·2⁻²⁴). So only the octaves holding areas within a factor of t·(1 − 2⁻¹⁰) of the candidate's are
///   searched. With other types or thresholds one 16 × 16 grid holds every box.
///
/// Kept boxes that are empty cannot suppress and are left out, as are, in the octave grids, those of area 0; kept
/// boxes with a NaN or infinite coordinate, or an area outside [2⁻¹⁰⁰, 2¹⁰⁰] in the octave grids, are compared with
/// every candidate. A candidate with such a coordinate or area, or a negative threshold (every similarity of 0 then
/// suppresses), is compared with all kept boxes.
///
/// A cell holds its boxes in chunks of `RetainedRects.Lanes.scalarCount`, tested in one vector pass each; a chunk's
/// unused lanes hold an empty box, which never suppresses here (the threshold is ≥ 0). Each lane also holds its box's
/// position among the kept boxes, so that a search names the box it found (see `SuppressorHints`).
final class RetainedRectGrid {
    private typealias Lanes = RetainedRects.Lanes

    private let threshold: Float
    private let type: NonMaxSuppressionOptions.OverlapType
    /// One grid per area octave, or one grid for every box.
    private let levels: [Level]
    /// The exponent (`Float.exponent`) of the first level's areas; nil when one grid holds every box.
    private let firstExponent: Int?
    /// Every level's cells, level after level: the index of the cell's newest chunk, or −1.
    private let heads: UnsafeMutablePointer<Int32>
    private let cellCount: Int
    private var chunks: UnsafeMutablePointer<Chunk>
    private var chunkCapacity = 0
    private var chunkCount = 0
    /// Kept boxes the grids cannot place (see above).
    private let unplaced = RetainedRects()
    /// Every kept box, for candidates the grids cannot place and for negative thresholds.
    private let all = RetainedRects()

    /// Areas whose IoU tests stay within the error bound above.
    private static let placeableAreas: ClosedRange<Float> = 0x1p-100...0x1p100
    /// The fraction of the threshold a kept box's area ratio to the candidate's may fall to and still be searched.
    private static let ratioSlack: Float = 1 - 0x1p-10

    /// Up to `Lanes.scalarCount` boxes of one cell, as columns, and the cell's next older chunk (−1: none).
    private struct Chunk {
        var xMin: Lanes
        var yMin: Lanes
        var xMax: Lanes
        var yMax: Lanes
        var area: Lanes
        /// Each lane's box's position among all kept boxes (−1: none, or past `Int32.max`).
        var ordinals: SIMD8<Int32>
        var count: Int
        var next: Int32

        /// A chunk of empty boxes.
        init(next: Int32) {
            let empty = RelativeRect.empty
            xMin = Lanes(repeating: empty.xMin)
            yMin = Lanes(repeating: empty.yMin)
            xMax = Lanes(repeating: empty.xMax)
            yMax = Lanes(repeating: empty.yMax)
            area = Lanes(repeating: 0)
            ordinals = SIMD8(repeating: -1)
            count = 0
            self.next = next
        }
    }

    /// One uniform grid of `side × side` cells, the `side²` heads from `firstCell` on.
    private struct Level {
        let side: Int
        let origin: (x: Float, y: Float)
        let scale: (x: Float, y: Float)
        let firstCell: Int

        /// A grid over `low...high` whose cells are about `cellSize` wide (all of it when 0), with 1 to `maximumSide`
        /// per axis.
        init(low: (x: Float, y: Float), high: (x: Float, y: Float), cellSize: Float, maximumSide: Int, firstCell: Int) {
            origin = (low.x.isFinite ? low.x : 0, low.y.isFinite ? low.y : 0)
            let extent = (x: high.x - origin.x, y: high.y - origin.y)
            let longest = max(extent.x.isFinite ? extent.x : 0, extent.y.isFinite ? extent.y : 0)
            let cells = cellSize > 0 ? (longest / cellSize).rounded(.up) : Float(maximumSide)
            side = cells >= Float(maximumSide) ? maximumSide : max(1, Int(cells))
            scale = (
                extent.x.isFinite && extent.x > 0 ? Float(side) / extent.x : 0,
                extent.y.isFinite && extent.y > 0 ? Float(side) / extent.y : 0
            )
            self.firstCell = firstCell
        }

        /// The cells a finite, non-empty box covers.
        @inline(__always)
        func range(of rect: RelativeRect) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>) {
            (
                cell(rect.xMin, origin.x, scale.x)...cell(rect.xMax, origin.x, scale.x),
                cell(rect.yMin, origin.y, scale.y)...cell(rect.yMax, origin.y, scale.y)
            )
        }

        /// `⌊(value − origin) · scale⌋` clamped to the grid: non-decreasing in `value`. (Below 1 the floor is 0 or
        /// less, and from 1 to `side − 1` it is the truncation, which needs no rounding call.)
        @inline(__always)
        private func cell(_ value: Float, _ origin: Float, _ scale: Float) -> Int {
            let position = (value - origin) * scale
            if !(position >= 1) { return 0 }
            return position >= Float(side - 1) ? side - 1 : Int(position)
        }
    }

    /// Grids over the extent of `rects` (their finite coordinates), which must include every box that will be
    /// appended, for suppression of the given type and threshold.
    init(covering rects: [RelativeRect], type: NonMaxSuppressionOptions.OverlapType, threshold: Float) {
        self.threshold = threshold
        self.type = type
        var low = (x: Float.infinity, y: Float.infinity)
        var high = (x: -Float.infinity, y: -Float.infinity)
        /// Widens `[low, high]` to `value` when it is finite.
        func widen(_ low: inout Float, _ high: inout Float, _ value: Float) {
            guard value.isFinite else { return }
            low = min(low, value)
            high = max(high, value)
        }
        var exponents = (low: Int.max, high: Int.min)
        let usesOctaves = type == .intersectionOverUnion && threshold > 0 && rects.count >= 256
        for rect in rects {
            widen(&low.x, &high.x, rect.xMin)
            widen(&low.x, &high.x, rect.xMax)
            widen(&low.y, &high.y, rect.yMin)
            widen(&low.y, &high.y, rect.yMax)
            if usesOctaves, let exponent = Self.areaExponent(rect) {
                exponents = (min(exponents.low, exponent), max(exponents.high, exponent))
            }
        }
        var levels: [Level] = []
        var cells = 0
        if usesOctaves && exponents.low <= exponents.high {
            firstExponent = exponents.low
            for exponent in exponents.low...exponents.high {
                // Cells as wide as a square of the octave's largest area.
                let cellSize = Float(sign: .plus, exponent: exponent + 1, significand: 1).squareRoot()
                levels.append(Level(low: low, high: high, cellSize: cellSize, maximumSide: 32, firstCell: cells))
                cells += levels[levels.count - 1].side * levels[levels.count - 1].side
            }
        } else {
            firstExponent = nil
            levels.append(
                Level(low: low, high: high, cellSize: 0, maximumSide: rects.count >= 256 ? 16 : 1, firstCell: 0))
            cells = levels[0].side * levels[0].side
        }
        self.levels = levels
        cellCount = cells
        heads = .allocate(capacity: cells)
        heads.initialize(repeating: -1, count: cells)
        chunks = .allocate(capacity: 0)
    }

    /// A grid with the same levels and settings as `other` and no boxes.
    private init(sameLayoutAs other: RetainedRectGrid) {
        threshold = other.threshold
        type = other.type
        levels = other.levels
        firstExponent = other.firstExponent
        cellCount = other.cellCount
        heads = .allocate(capacity: cellCount)
        heads.initialize(repeating: -1, count: cellCount)
        chunks = .allocate(capacity: 0)
    }

    /// An empty grid laid out like this one (for the same boxes, type and threshold), without scanning the boxes
    /// again.
    func emptyCopy() -> RetainedRectGrid { RetainedRectGrid(sameLayoutAs: self) }

    deinit {
        heads.deallocate()
        chunks.deallocate()
    }

    /// The octave of a finite, non-empty box's area, when it is placeable.
    private static func areaExponent(_ rect: RelativeRect) -> Int? {
        guard rect.isFinite, !rect.isEmpty else { return nil }
        let area = rect.area
        return placeableAreas.contains(area) ? area.exponent : nil
    }

    /// A kept box whose similarity with `candidate` is above the threshold: its position among the kept boxes (in
    /// the order they were appended), or −1 when it was found outside the grids; nil when there is none.
    func suppressor(of candidate: RelativeRect) -> Int? {
        guard threshold >= 0, candidate.isFinite else {
            return all.anyOverlaps(candidate, type: type, threshold: threshold) ? -1 : nil
        }
        if candidate.isEmpty { return nil }
        if unplaced.anyOverlaps(candidate, type: type, threshold: threshold) { return -1 }
        let test = RetainedRects.CandidateLanes(candidate, threshold: threshold)
        guard let firstExponent else { return suppressor(of: candidate, test, in: levels[0]) }
        let area = candidate.area
        guard Self.placeableAreas.contains(area) else {
            return all.anyOverlaps(candidate, type: type, threshold: threshold) ? -1 : nil
        }
        // Kept areas K with area · t′ < K < area / t′ (t′ = t · slack) can suppress; octave e holds [2^e, 2^(e+1)).
        let ratio = threshold * Self.ratioSlack
        let smallest = area * ratio
        let largest = area / ratio
        /// The index of the octave holding `value`: −1 below them all, `levels.count` above.
        @inline(__always)
        func octave(_ value: Float) -> Int {
            guard value >= .leastNormalMagnitude else { return -1 }
            guard value.isFinite else { return levels.count }
            return min(max(value.exponent - firstExponent, -1), levels.count)
        }
        let first = max(0, octave(smallest))
        let last = min(levels.count - 1, octave(largest))
        guard first <= last else { return nil }
        // The candidate's own octave first, then outwards: a box of similar area is the likeliest to suppress it.
        let own = min(max(octave(area), first), last)
        if let found = suppressor(of: candidate, test, in: levels[own]) { return found }
        var step = 1
        while own - step >= first || own + step <= last {
            if own + step <= last, let found = suppressor(of: candidate, test, in: levels[own + step]) { return found }
            if own - step >= first, let found = suppressor(of: candidate, test, in: levels[own - step]) { return found }
            step += 1
        }
        return nil
    }

    /// Whether the kept box at `ordinal` (a position among the kept boxes) suppresses `candidate`: the scalar
    /// similarity, the same float operations as the grid's lanes.
    func keptBoxSuppresses(_ ordinal: Int, _ candidate: RelativeRect) -> Bool {
        NonMaxSuppression.similarity(all.box(at: ordinal), candidate, type) > threshold
    }

    /// Whether a box kept from position `first` on suppresses `candidate` (a plain pass over them).
    func keptBoxesSuppress(_ candidate: RelativeRect, from first: Int) -> Bool {
        all.anyOverlaps(candidate, type: type, threshold: threshold, from: first)
    }

    /// How many boxes have been kept.
    var keptCount: Int { all.count }

    /// A box in the cells of `level` that `candidate` covers that suppresses it (see ``suppressor(of:)``).
    private func suppressor(
        of candidate: RelativeRect, _ test: RetainedRects.CandidateLanes, in level: Level
    ) -> Int? {
        let (columns, rows) = level.range(of: candidate)
        let chunks = chunks
        for row in rows {
            for column in columns {
                var chunk = Int(heads[level.firstCell + row * level.side + column])
                while chunk >= 0 {
                    let kept = chunks + chunk
                    if let lane = test.firstHitAmongOrderedBoxes(
                        xMin: kept.pointee.xMin, yMin: kept.pointee.yMin, xMax: kept.pointee.xMax,
                        yMax: kept.pointee.yMax, area: kept.pointee.area, type: type)
                    {
                        return Int(kept.pointee.ordinals[lane])
                    }
                    chunk = Int(kept.pointee.next)
                }
            }
        }
        return nil
    }

    /// Keeps `rect`.
    func append(_ rect: RelativeRect) {
        all.append(rect)
        if threshold < 0 || rect.isEmpty { return }
        guard rect.isFinite else {
            unplaced.append(rect)
            return
        }
        let level: Level
        if let firstExponent {
            if rect.area == 0 { return }
            // Boxes outside the octaves of the boxes the grids were made for are compared with every candidate.
            guard let exponent = Self.areaExponent(rect), levels.indices.contains(exponent - firstExponent) else {
                unplaced.append(rect)
                return
            }
            level = levels[exponent - firstExponent]
        } else {
            level = levels[0]
        }
        let (columns, rows) = level.range(of: rect)
        let area = rect.area
        let ordinal = Int32(exactly: all.count - 1) ?? -1
        for row in rows {
            for column in columns {
                let head = level.firstCell + row * level.side + column
                if heads[head] < 0 || chunks[Int(heads[head])].count == Lanes.scalarCount {
                    heads[head] = newChunk(next: heads[head])
                }
                let chunk = chunks + Int(heads[head])
                let lane = chunk.pointee.count
                chunk.pointee.xMin[lane] = rect.xMin
                chunk.pointee.yMin[lane] = rect.yMin
                chunk.pointee.xMax[lane] = rect.xMax
                chunk.pointee.yMax[lane] = rect.yMax
                chunk.pointee.area[lane] = area
                chunk.pointee.ordinals[lane] = ordinal
                chunk.pointee.count = lane + 1
            }
        }
    }

    /// A new chunk of empty boxes whose next is `next`, growing the storage by doubling.
    private func newChunk(next: Int32) -> Int32 {
        if chunkCount == chunkCapacity {
            let capacity = max(64, chunkCapacity * 2)
            let larger = UnsafeMutablePointer<Chunk>.allocate(capacity: capacity)
            larger.moveInitialize(from: chunks, count: chunkCount)
            chunks.deallocate()
            chunks = larger
            chunkCapacity = capacity
        }
        (chunks + chunkCount).initialize(to: Chunk(next: next))
        chunkCount += 1
        return Int32(truncatingIfNeeded: chunkCount - 1)
    }
}

extension RelativeRect {
    /// Whether all four coordinates are finite.
    var isFinite: Bool { xMin.isFinite && yMin.isFinite && xMax.isFinite && yMax.isFinite }
}
