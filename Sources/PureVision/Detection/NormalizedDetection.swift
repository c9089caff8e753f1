/// One keypoint of a detection, in the same normalized frame as its bounding box: the point type results report.
public typealias Keypoint = NormalizedKeypoint

/// A detection with a relative bounding box, as MediaPipe's `Detection` with
/// `LocationData::RELATIVE_BOUNDING_BOX` and one score/label pair.
///
/// Coordinates are normalized to the frame they were produced in (tensor-normalized after decoding,
/// image-normalized after projection); `y` grows downwards. The box is stored as MediaPipe stores it:
/// top-left corner plus size, so `xMin + width` is the right edge.
public struct NormalizedDetection: Sendable, Hashable {
    /// The detection's confidence (after the sigmoid when the decoder applies one).
    public var score: Float
    /// The class index the score belongs to (MediaPipe's `label_id`).
    public var classID: Int
    /// Left edge, normalized.
    public var xMin: Float
    /// Top edge, normalized.
    public var yMin: Float
    /// Box width, normalized.
    public var width: Float
    /// Box height, normalized.
    public var height: Float
    /// Keypoints in model order (for example the 7 palm or 6 face keypoints).
    public var keypoints: [Keypoint]

    /// Creates a detection.
    public init(
        score: Float, classID: Int = 0,
        xMin: Float, yMin: Float, width: Float, height: Float,
        keypoints: [Keypoint] = []
    ) {
        self.score = score
        self.classID = classID
        self.xMin = xMin
        self.yMin = yMin
        self.width = width
        self.height = height
        self.keypoints = keypoints
    }
}
