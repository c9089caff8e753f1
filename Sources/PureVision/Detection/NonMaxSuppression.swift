import PureVisionKernels
import Synchronization

/// Non-maximum suppression of single-label detections, as MediaPipe's `NonMaxSuppressionCalculator` does
/// for one input stream without an image (boxes already relative).
///
/// Detections are visited in `std::sort` score order (see the tie rule below); the overlap is computed on the
/// relative boxes with MediaPipe's rectangle semantics (edges included, `std::min`/`std::max` NaN behaviour),
/// and two boxes overlap when the similarity is **strictly greater** than `minSuppressionThreshold`.
///
/// - `.default`: a detection is kept unless it overlaps an already kept one; stops at `maxNumDetections`.
/// - `.weighted`: the top remaining detection collects every remaining detection (itself included) that
///   overlaps it; the output keeps the top detection's score and class, with box corners and keypoints
///   replaced by the score-weighted means `Σ(v·s) / Σs`, accumulated in float in score order. The loop ends
///   when an iteration removes nothing — so a top detection that does not overlap itself (an empty box)
///   is emitted and ends suppression, dropping the rest, as in MediaPipe. `maxNumDetections` is ignored.
///
/// Ties: MediaPipe's `std::sort` is not stable; this port replays libstdc++'s introsort, so equal scores come
/// out in the same order as in MediaPipe's Linux build (for ≤ 16 detections: input order).
public enum NonMaxSuppression {
    /// Suppresses overlapping detections.
    ///
    /// - Returns: the retained detections in visiting order; `nil` when `detections` is empty and
    ///   `returnEmptyDetections` is false (MediaPipe then emits no packet at all).
    public static func suppress(
        _ detections: [NormalizedDetection], options: NonMaxSuppressionOptions
    ) -> [NormalizedDetection]? {
        suppress(detections, options: options, pool: .serial)
    }

    /// ``suppress(_:options:)`` with the greedy algorithm's overlap tests spread over `pool` (same result).
    package static func suppress(
        _ detections: [NormalizedDetection], options: NonMaxSuppressionOptions, pool: ThreadPool
    ) -> [NormalizedDetection]? {
        if detections.isEmpty {
            return options.returnEmptyDetections ? [] : nil
        }
        let order = ScoreOrder.indices(detections.map(\.score), pool: pool)
        switch options.algorithm {
        case .default:
            return greedy(detections, order: order, options: options, pool: pool)
        case .weighted:
            return weighted(detections, order: order, options: options)
        }
    }

    /// The overlap similarity of two detections' boxes, as MediaPipe's `OverlapSimilarity(type, rect1, rect2)`.
    public static func similarity(
        _ first: NormalizedDetection, _ second: NormalizedDetection, overlapType: NonMaxSuppressionOptions.OverlapType
    ) -> Float {
        similarity(RelativeRect(first), RelativeRect(second), overlapType)
    }

    /// Candidates below which greedy suppression stays on one thread (waking a helper costs more than it saves).
    private static let smallestSharedCount = 256

    /// How far past the walk the helper starts again when the walk has caught up with it: the walk tests those
    /// candidates itself while the helper works on the ones after them.
    private static let helperGap = 64

    /// Greedy suppression: the walk keeps a candidate exactly when no box it kept before overlaps it.
    ///
    /// A candidate is first tested against the kept boxes that suppressed its neighbours in the input (see
    /// ``SuppressorHints``), then searched for in the grid of kept boxes.
    ///
    /// With more than one thread and enough candidates, a helper thread runs ahead of the walk. It holds its own copy
    /// of the kept boxes, fed from those the walk has published, and tests candidates against it: a candidate is
    /// either suppressed by one of them, or overlapped by none of the first `s` kept boxes, and the helper records
    /// which (``HelperVerdict``). The walk then skips a suppressed candidate and tests another only against the boxes
    /// it kept after the first `s`, a few, in a plain pass, instead of searching the grid. Each verdict is exact for
    /// the boxes it names: those were kept before the candidate (the walk publishes a box while at it, and reads a
    /// verdict only after the helper has published it, when the walk is at the candidate). Candidates the helper has
    /// not reached are searched by the walk itself. So the output is the serial loop's whatever the timing; when the
    /// walk catches up with the helper, the helper starts again ``helperGap`` candidates further on, so that the two
    /// share the searches.
    private static func greedy(
        _ detections: [NormalizedDetection], order: [Int], options: NonMaxSuppressionOptions, pool: ThreadPool
    ) -> [NormalizedDetection] {
        let maxCount = options.maxNumDetections > -1 ? options.maxNumDetections : order.count
        var output: [NormalizedDetection] = []
        let rects = detections.map(RelativeRect.init)
        let retained = RetainedRectGrid(
            covering: rects, type: options.overlapType, threshold: options.minSuppressionThreshold)
        let hints = SuppressorHints(count: detections.count)
        defer { hints.deallocate() }
        /// Whether to stop before `index` (scores are visited in descending order).
        func belowThreshold(_ index: Int) -> Bool {
            options.minScoreThreshold > 0 && detections[index].score < options.minScoreThreshold
        }
        /// Keeps the candidate at `index` (box `rect`): into the output and the grid, its own box its hint.
        func keep(_ index: Int, _ rect: RelativeRect) {
            hints.record(retained.keptCount, for: index)
            output.append(detections[index])
            retained.append(rect)
        }
        guard pool.threadCount > 1, order.count >= smallestSharedCount, maxCount > 0 else {
            for index in order {
                if belowThreshold(index) { break }
                let rect = rects[index]
                if !hints.suppressed(index, rect, by: retained) { keep(index, rect) }
                if output.count >= maxCount { break }
            }
            return output
        }
        let count = order.count
        // Written by the helper only: its verdict on the candidate at each position of the walk.
        let verdicts = UnsafeMutablePointer<HelperVerdict>.allocate(capacity: count)
        // Written by the walk only: the indices of the boxes it kept, in order.
        let keptIndices = UnsafeMutablePointer<Int>.allocate(capacity: count)
        let helperHints = SuppressorHints(count: detections.count)
        defer {
            verdicts.deallocate()
            keptIndices.deallocate()
            helperHints.deallocate()
        }
        /// `verdicts[0..<value]` are final (helper → walk).
        let verdictCount = Atomic<Int>(0)
        /// `keptIndices[0..<value]` are final (walk → helper).
        let keptCount = Atomic<Int>(0)
        /// Where the walk is, or `count` once it has ended (walk → helper; a hint).
        let walkPosition = Atomic<Int>(0)
        let helperCopy = retained.emptyCopy()
        /// The serial loop, skipping or shortening the tests of the candidates the helper has judged.
        func walk() {
            var known = 0
            for position in 0..<count {
                let index = order[position]
                if belowThreshold(index) { break }
                if position >= known { known = verdictCount.load(ordering: .acquiring) }
                let rect = rects[index]
                let suppressed: Bool
                switch position < known ? verdicts[position] : .untested {
                case .suppressed(let ordinal):
                    hints.record(ordinal, for: index)
                    continue
                case .clearOfFirst(let checked):
                    suppressed = retained.keptBoxesSuppress(rect, from: checked)
                case .untested:
                    // Searched here: tell the helper, which leaves these to the walk and moves on.
                    walkPosition.store(position, ordering: .relaxed)
                    suppressed = hints.suppressed(index, rect, by: retained)
                }
                if !suppressed {
                    keptIndices[retained.keptCount] = index
                    keep(index, rect)
                    keptCount.store(retained.keptCount, ordering: .releasing)
                    if output.count >= maxCount { break }
                }
            }
            walkPosition.store(count, ordering: .relaxed)
        }
        /// Judges the candidates ahead of the walk against the boxes it has published, until the walk ends.
        func help() {
            var next = 0
            while next < count {
                let walk = walkPosition.load(ordering: .relaxed)
                if walk >= count { break }
                if next <= walk {
                    let resume = min(count, walk + helperGap)
                    (verdicts + next).initialize(repeating: .untested, count: resume - next)
                    next = resume
                    verdictCount.store(next, ordering: .releasing)
                    continue
                }
                let published = keptCount.load(ordering: .acquiring)
                while helperCopy.keptCount < published {
                    let kept = keptIndices[helperCopy.keptCount]
                    helperHints.record(helperCopy.keptCount, for: kept)
                    helperCopy.append(rects[kept])
                }
                let index = order[next]
                let verdict: HelperVerdict =
                    helperHints.suppressed(index, rects[index], by: helperCopy)
                    ? .suppressed(ordinal: helperHints.ordinal(for: index)) : .clearOfFirst(published)
                (verdicts + next).initialize(to: verdict)
                next += 1
                verdictCount.store(next, ordering: .releasing)
            }
        }
        pool.parallelFor(2) { role in role == 0 ? walk() : help() }
        return output
    }

    /// What the helper of threaded greedy suppression found for one candidate.
    private enum HelperVerdict {
        /// Not tested: the walk searches every kept box.
        case untested
        /// Suppressed by the kept box at this position among the kept boxes (−1: not known which).
        case suppressed(ordinal: Int)
        /// No box among the first ones kept, this many, suppresses it.
        case clearOfFirst(Int)
    }

    private static func weighted(
        _ detections: [NormalizedDetection], order: [Int], options: NonMaxSuppressionOptions
    ) -> [NormalizedDetection] {
        let rects = detections.map(RelativeRect.init)
        var remaining = order
        var output: [NormalizedDetection] = []
        while let topIndex = remaining.first {
            let top = detections[topIndex]
            if options.minScoreThreshold > 0 && top.score < options.minScoreThreshold { break }
            var candidates: [Int] = []
            var rest: [Int] = []
            for index in remaining {
                if similarity(rects[index], rects[topIndex], options.overlapType) > options.minSuppressionThreshold {
                    candidates.append(index)
                } else {
                    rest.append(index)
                }
            }
            output.append(candidates.isEmpty ? top : weightedMean(of: candidates, top: top, in: detections))
            if rest.count == remaining.count { break }
            remaining = rest
        }
        return output
    }

    private static func weightedMean(
        of candidates: [Int], top: NormalizedDetection, in detections: [NormalizedDetection]
    ) -> NormalizedDetection {
        let keypointCount = top.keypoints.count
        var keypointSums = [Float](repeating: 0, count: keypointCount * 2)
        var xMinSum: Float = 0
        var yMinSum: Float = 0
        var xMaxSum: Float = 0
        var yMaxSum: Float = 0
        var totalScore: Float = 0
        for index in candidates {
            let candidate = detections[index]
            let score = candidate.score
            totalScore += score
            xMinSum += candidate.xMin * score
            yMinSum += candidate.yMin * score
            xMaxSum += (candidate.xMin + candidate.width) * score
            yMaxSum += (candidate.yMin + candidate.height) * score
            for k in 0..<min(keypointCount, candidate.keypoints.count) {
                keypointSums[2 * k] += candidate.keypoints[k].x * score
                keypointSums[2 * k + 1] += candidate.keypoints[k].y * score
            }
        }
        var result = top
        result.xMin = xMinSum / totalScore
        result.yMin = yMinSum / totalScore
        result.width = xMaxSum / totalScore - result.xMin
        result.height = yMaxSum / totalScore - result.yMin
        for k in 0..<keypointCount {
            result.keypoints[k] = Keypoint(x: keypointSums[2 * k] / totalScore, y: keypointSums[2 * k + 1] / totalScore)
        }
        return result
    }

    /// MediaPipe's `OverlapSimilarity` of two boxes (`rect1` the kept one in greedy suppression).
    static func similarity(
        _ rect1: RelativeRect, _ rect2: RelativeRect, _ type: NonMaxSuppressionOptions.OverlapType
    ) -> Float {
        guard rect1.intersects(rect2) else { return 0 }
        let intersection = rect1.intersection(rect2).area
        let normalization: Float
        switch type {
        case .jaccard:
            normalization = rect1.union(rect2).area
        case .modifiedJaccard:
            normalization = rect2.area
        case .intersectionOverUnion:
            normalization = rect1.area + rect2.area - intersection
        }
        return normalization > 0 ? intersection / normalization : 0
    }
}

/// MediaPipe's `Rectangle_f` built from a relative box: corners `(x, y)` and `(x + w, y + h)`.
struct RelativeRect {
    var xMin: Float
    var yMin: Float
    var xMax: Float
    var yMax: Float

    init(_ detection: NormalizedDetection) {
        xMin = detection.xMin
        yMin = detection.yMin
        xMax = detection.xMin + detection.width
        yMax = detection.yMin + detection.height
    }

    /// `Rectangle(Point2 p0, Point2 p1)`: orders each axis with `<=`, as `Rectangle::Set` does.
    init(corner p0: (x: Float, y: Float), corner p1: (x: Float, y: Float)) {
        if p0.x <= p1.x { (xMin, xMax) = (p0.x, p1.x) } else { (xMin, xMax) = (p1.x, p0.x) }
        if p0.y <= p1.y { (yMin, yMax) = (p0.y, p1.y) } else { (yMin, yMax) = (p1.y, p0.y) }
    }

    /// `SetEmpty()`.
    static let empty = RelativeRect(
        xMin: .greatestFiniteMagnitude, yMin: .greatestFiniteMagnitude,
        xMax: -.greatestFiniteMagnitude, yMax: -.greatestFiniteMagnitude
    )

    /// The box with these edges as they are (not reordered).
    init(xMin: Float, yMin: Float, xMax: Float, yMax: Float) {
        self.xMin = xMin
        self.yMin = yMin
        self.xMax = xMax
        self.yMax = yMax
    }

    var isEmpty: Bool { xMin > xMax || yMin > yMax }

    var area: Float { (xMax - xMin) * (yMax - yMin) }

    func intersects(_ other: RelativeRect) -> Bool {
        !(isEmpty || other.isEmpty || other.xMax < xMin || xMax < other.xMin
            || other.yMax < yMin || yMax < other.yMin)
    }

    func intersection(_ other: RelativeRect) -> RelativeRect {
        let low = (x: cppMax(xMin, other.xMin), y: cppMax(yMin, other.yMin))
        let high = (x: cppMin(xMax, other.xMax), y: cppMin(yMax, other.yMax))
        if low.x > high.x || low.y > high.y { return .empty }
        return RelativeRect(corner: low, corner: high)
    }

    func union(_ other: RelativeRect) -> RelativeRect {
        RelativeRect(
            corner: (cppMin(xMin, other.xMin), cppMin(yMin, other.yMin)),
            corner: (cppMax(xMax, other.xMax), cppMax(yMax, other.yMax))
        )
    }
}

/// `std::min(a, b)`: `b < a ? b : a` (returns `a` when either is NaN).
@inline(__always)
func cppMin(_ a: Float, _ b: Float) -> Float { b < a ? b : a }

/// `std::max(a, b)`: `a < b ? b : a` (returns `a` when either is NaN).
@inline(__always)
func cppMax(_ a: Float, _ b: Float) -> Float { a < b ? b : a }
