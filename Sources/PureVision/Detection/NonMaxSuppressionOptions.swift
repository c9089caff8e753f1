/// Options for `NonMaxSuppression`: the fields of MediaPipe's `NonMaxSuppressionCalculatorOptions` that apply
/// to one stream of single-label detections.
public struct NonMaxSuppressionOptions: Sendable, Hashable {
    /// How overlapping detections are combined.
    public enum Algorithm: Sendable, Hashable {
        /// Greedy: keep a detection unless it overlaps an already kept one by more than the threshold.
        case `default`
        /// Weighted: replace each cluster by the score-weighted mean of its boxes and keypoints.
        case weighted
    }

    /// How the overlap of two boxes is measured.
    public enum OverlapType: Sendable, Hashable {
        /// Intersection area over the area of the smallest box enclosing both (MediaPipe's `JACCARD`).
        case jaccard
        /// Intersection area over the second box's area (MediaPipe's `MODIFIED_JACCARD`).
        case modifiedJaccard
        /// Intersection area over `area₁ + area₂ − intersection` (MediaPipe's `INTERSECTION_OVER_UNION`).
        case intersectionOverUnion
    }

    /// The combining algorithm.
    public var algorithm: Algorithm
    /// The overlap measure.
    public var overlapType: OverlapType
    /// Detections overlap when their similarity is strictly greater than this.
    public var minSuppressionThreshold: Float
    /// At most this many outputs for `.default`; −1 (or any negative value) for no limit.
    /// MediaPipe's weighted algorithm ignores it, and so does this port.
    public var maxNumDetections: Int
    /// When positive, processing stops at the first detection (in score order) scoring below it.
    public var minScoreThreshold: Float
    /// With no input detections, return an empty list (`true`) or `nil`, meaning MediaPipe emits no packet.
    public var returnEmptyDetections: Bool

    /// Creates options; the defaults are the proto defaults.
    public init(
        algorithm: Algorithm = .default,
        overlapType: OverlapType = .jaccard,
        minSuppressionThreshold: Float = 1.0,
        maxNumDetections: Int = -1,
        minScoreThreshold: Float = -1.0,
        returnEmptyDetections: Bool = false
    ) {
        self.algorithm = algorithm
        self.overlapType = overlapType
        self.minSuppressionThreshold = minSuppressionThreshold
        self.maxNumDetections = maxNumDetections
        self.minScoreThreshold = minScoreThreshold
        self.returnEmptyDetections = returnEmptyDetections
    }

    /// The palm detector's settings: weighted, IoU, threshold 0.3, empty list when nothing was found.
    public static let palmDetection = NonMaxSuppressionOptions(
        algorithm: .weighted, overlapType: .intersectionOverUnion, minSuppressionThreshold: 0.3,
        returnEmptyDetections: true
    )

    /// The face detector's settings: weighted, IoU, threshold 0.3 (the Tasks API default
    /// `min_suppression_threshold`).
    public static let faceDetection = NonMaxSuppressionOptions(
        algorithm: .weighted, overlapType: .intersectionOverUnion, minSuppressionThreshold: 0.3
    )
}
