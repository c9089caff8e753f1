/// What an `ImageSegmenter` found in one image or frame: MediaPipe's `ImageSegmenterResult`.
///
/// Masks have the input image's stored size. With a rotation (`ImageProcessingOptions.rotationDegrees` or the
/// image's orientation) the masks are, as in MediaPipe, the model's view of the rotated image stretched back to
/// the unrotated width × height, not rotated back.
public struct ImageSegmenterResult: Sendable, Hashable {
    /// One mask per class, in label order; nil unless `outputConfidenceMasks`.
    public var confidenceMasks: [ConfidenceMask]?
    /// The category mask; nil unless `outputCategoryMask`.
    public var categoryMask: CategoryMask?
    /// The model's quality scores: its first output when it has two, else 1 per class (MediaPipe's C++ API).
    public var qualityScores: [Float]
    /// The frame's timestamp in video and live-stream mode; nil in image mode.
    public var timestampInMilliseconds: Int?

    /// The category-mask value of a one-class model's background pixels.
    public static let backgroundValue: UInt8 = 255

    /// Creates the value from its fields.
    public init(
        confidenceMasks: [ConfidenceMask]?, categoryMask: CategoryMask?, qualityScores: [Float],
        timestampInMilliseconds: Int? = nil
    ) {
        self.confidenceMasks = confidenceMasks
        self.categoryMask = categoryMask
        self.qualityScores = qualityScores
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}
