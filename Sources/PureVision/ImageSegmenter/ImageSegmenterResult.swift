/// A per-pixel confidence of one class, `width × height` floats, row-major: MediaPipe's `VEC32F1` mask image.
public struct ConfidenceMask: Sendable, Hashable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// `width · height` values, row by row.
    public let values: [Float]

    /// Creates a mask; `values` must hold `width · height` floats.
    public init(width: Int, height: Int, values: [Float]) {
        precondition(values.count == width * height, "ConfidenceMask: \(values.count) values for \(width)×\(height)")
        self.width = width
        self.height = height
        self.values = values
    }

    /// The value at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> Float { values[y * width + x] }
}

/// One class index per pixel, `width × height` bytes, row-major: MediaPipe's `GRAY8` category mask.
///
/// For a model with several classes each pixel is the index of its most likely class (the label index). For a
/// one-class model (a selfie segmenter) MediaPipe's convention applies: **0 is the class (the person) and 255 the
/// background** (`ImageSegmenterResult.backgroundValue`).
public struct CategoryMask: Sendable, Hashable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// `width · height` class indices, row by row.
    public let values: [UInt8]

    /// Creates a mask; `values` must hold `width · height` bytes.
    public init(width: Int, height: Int, values: [UInt8]) {
        precondition(values.count == width * height, "CategoryMask: \(values.count) values for \(width)×\(height)")
        self.width = width
        self.height = height
        self.values = values
    }

    /// The class index at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> UInt8 { values[y * width + x] }
}

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
