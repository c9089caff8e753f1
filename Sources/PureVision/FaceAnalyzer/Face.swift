/// A point in the input image's pixels (ML Kit's `VisionPoint`): x to the right, y down, origin at the top-left
/// corner of the stored pixels.
public struct VisionPoint: Sendable, Hashable, Codable {
    /// Horizontal position in pixels, to the right.
    public var x: Float
    /// Vertical position in pixels, downwards.
    public var y: Float

    /// Creates a point at (`x`, `y`) pixels.
    public init(x: Float, y: Float) {
        self.x = x
        self.y = y
    }
}

/// An axis-aligned rectangle in pixels (ML Kit's `Face.frame`, a `CGRect`).
public struct PixelRect: Sendable, Hashable, Codable {
    /// Left edge in pixels.
    public var originX: Float
    /// Top edge in pixels.
    public var originY: Float
    /// Width in pixels.
    public var width: Float
    /// Height in pixels.
    public var height: Float

    /// Creates a rectangle from its top-left corner and size, in pixels.
    public init(originX: Float, originY: Float, width: Float, height: Float) {
        self.originX = originX
        self.originY = originY
        self.width = width
        self.height = height
    }

    /// Intersection over union; 0 when either rectangle is empty or they do not overlap.
    public func intersectionOverUnion(_ other: PixelRect) -> Float {
        let left = max(originX, other.originX)
        let top = max(originY, other.originY)
        let right = min(originX + width, other.originX + other.width)
        let bottom = min(originY + height, other.originY + other.height)
        guard right > left, bottom > top else { return 0 }
        let intersection = (right - left) * (bottom - top)
        let union = width * height + other.width * other.height - intersection
        return union > 0 ? intersection / union : 0
    }
}

/// One ML Kit face landmark: its type and position in pixels.
public struct FaceLandmark: Sendable, Hashable, Codable {
    /// Which landmark this is.
    public var type: FaceLandmarkType
    /// Where it is, in pixels.
    public var position: VisionPoint

    /// Creates a landmark of `type` at `position`.
    public init(type: FaceLandmarkType, position: VisionPoint) {
        self.type = type
        self.position = position
    }
}

/// One ML Kit face contour: its type and its points in pixels, in the order `FaceMeshTopology` documents.
public struct FaceContour: Sendable, Hashable, Codable {
    /// Which contour this is.
    public var type: FaceContourType
    /// Its points in pixels.
    public var points: [VisionPoint]

    /// Creates a contour of `type` through `points`.
    public init(type: FaceContourType, points: [VisionPoint]) {
        self.type = type
        self.points = points
    }
}

/// One face found by a `FaceAnalyzer`, in ML Kit's shape (`MLKFace`). Values the options turned off are nil (ML
/// Kit's `has…` properties false).
///
/// "Left" and "right" are the **subject's**: the left eye appears on the image's right in a non-mirrored photo.
public struct Face: Sendable, Hashable, Codable {
    /// The face's bounding rectangle in pixels: the extent of its 468 mesh points.
    public var frame: PixelRect
    /// Up/down rotation in degrees; positive when the face looks up (ML Kit's Euler X).
    public var headEulerAngleX: Float?
    /// Left/right rotation in degrees; positive when the face turns towards the image's right (Euler Y).
    public var headEulerAngleY: Float?
    /// In-plane rotation in degrees; positive counter-clockwise as seen in the image (Euler Z).
    public var headEulerAngleZ: Float?
    /// The landmarks ML Kit reports at this head yaw (`landmarkMode == .all`); see `FaceMeshTopology`.
    public var landmarks: [FaceLandmark]?
    /// All 15 contours, 133 points (`contourMode == .all`).
    public var contours: [FaceContour]?
    /// Probability-like smile score in [0, 1] (`classificationMode == .all`); see `FaceClassification`.
    public var smilingProbability: Float?
    /// Probability-like score in [0, 1] that the subject's left eye is open (`classificationMode == .all`).
    public var leftEyeOpenProbability: Float?
    /// Probability-like score in [0, 1] that the subject's right eye is open (`classificationMode == .all`).
    public var rightEyeOpenProbability: Float?
    /// An identifier kept while the face moves across frames (`isTrackingEnabled`).
    public var trackingID: Int?
    /// The 468 face-mesh landmarks, image-normalized (x by width, y by height, z by width), MediaPipe's face mesh
    /// order. Always present: everything else is derived from them.
    public var meshLandmarks: [NormalizedLandmark]

    /// Creates a face; every property but the frame is optional, as in ML Kit.
    public init(
        frame: PixelRect, headEulerAngleX: Float? = nil, headEulerAngleY: Float? = nil, headEulerAngleZ: Float? = nil,
        landmarks: [FaceLandmark]? = nil, contours: [FaceContour]? = nil, smilingProbability: Float? = nil,
        leftEyeOpenProbability: Float? = nil, rightEyeOpenProbability: Float? = nil, trackingID: Int? = nil,
        meshLandmarks: [NormalizedLandmark] = []
    ) {
        self.frame = frame
        self.headEulerAngleX = headEulerAngleX
        self.headEulerAngleY = headEulerAngleY
        self.headEulerAngleZ = headEulerAngleZ
        self.landmarks = landmarks
        self.contours = contours
        self.smilingProbability = smilingProbability
        self.leftEyeOpenProbability = leftEyeOpenProbability
        self.rightEyeOpenProbability = rightEyeOpenProbability
        self.trackingID = trackingID
        self.meshLandmarks = meshLandmarks
    }

    /// The landmark of `type`, when it was reported (ML Kit's `landmark(ofType:)`).
    public func landmark(ofType type: FaceLandmarkType) -> FaceLandmark? {
        landmarks?.first { $0.type == type }
    }

    /// The contour of `type`, when contours were reported (ML Kit's `contour(ofType:)`).
    public func contour(ofType type: FaceContourType) -> FaceContour? {
        contours?.first { $0.type == type }
    }
}
