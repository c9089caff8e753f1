/// A rectangle in integer pixels of the input image, as MediaPipe reports detection boxes.
public struct BoundingBox: Sendable, Hashable, Codable {
    /// Left edge, in pixels.
    public var originX: Int
    /// Top edge, in pixels.
    public var originY: Int
    /// Width, in pixels.
    public var width: Int
    /// Height, in pixels.
    public var height: Int

    /// Creates a box from its top-left corner and size, in pixels.
    public init(originX: Int, originY: Int, width: Int, height: Int) {
        self.originX = originX
        self.originY = originY
        self.width = width
        self.height = height
    }
}

/// A classification result: the class index, its score and, when the model names it, its label.
public struct ResultCategory: Sendable, Hashable, Codable {
    /// The class index in the model's output.
    public var index: Int
    /// The score (probability-like, in [0, 1] for the bundled models).
    public var score: Float
    /// The label from the model's label file, when there is one.
    public var categoryName: String?
    /// The label in the requested display-name locale, when there is one.
    public var displayName: String?

    /// Creates a category.
    public init(index: Int, score: Float, categoryName: String? = nil, displayName: String? = nil) {
        self.index = index
        self.score = score
        self.categoryName = categoryName
        self.displayName = displayName
    }
}

/// A point normalized to an image (in results) or to the frame a detection was decoded in: x and y in [0, 1] when
/// inside it.
public struct NormalizedKeypoint: Sendable, Hashable, Codable {
    /// Horizontal position, normalized by the image width.
    public var x: Float
    /// Vertical position, normalized by the image height.
    public var y: Float

    /// Creates a keypoint at normalized (`x`, `y`).
    public init(x: Float, y: Float) {
        self.x = x
        self.y = y
    }
}

/// One detected object, as MediaPipe Tasks reports it.
public struct Detection: Sendable, Hashable, Codable {
    /// The box, in integer pixels of the (stored, unrotated) input image.
    public var boundingBox: BoundingBox
    /// The detection's categories; detectors with one class report one category with the detection score.
    public var categories: [ResultCategory]
    /// Keypoints normalized to the input image (for faces: right eye, left eye, nose tip, mouth, right ear tragion,
    /// left ear tragion — the subject's right and left).
    public var keypoints: [NormalizedKeypoint]

    /// Creates a detection.
    public init(boundingBox: BoundingBox, categories: [ResultCategory], keypoints: [NormalizedKeypoint]) {
        self.boundingBox = boundingBox
        self.categories = categories
        self.keypoints = keypoints
    }
}
