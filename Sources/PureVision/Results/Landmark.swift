/// A landmark normalized to the input image: `x` and `y` in [0, 1] inside the image (they may fall outside),
/// `z` a relative depth on roughly the scale of `x` (smaller is closer to the camera).
public struct NormalizedLandmark: Sendable, Hashable, Codable {
    /// Horizontal position, normalized by the image width (0…1 inside the image).
    public var x: Float
    /// Vertical position, normalized by the image height (0…1 inside the image, downwards).
    public var y: Float
    /// Depth relative to the model's reference point, on about the scale of `x` (smaller is nearer the camera).
    public var z: Float
    /// How likely the landmark is visible (in view and not occluded), in [0, 1]; nil when the model does not say
    /// (MediaPipe's optional `visibility`; pose landmarks have it).
    public var visibility: Float?
    /// How likely the landmark is in the image at all, in [0, 1]; nil when the model does not say (MediaPipe's
    /// optional `presence`; pose landmarks have it).
    public var presence: Float?

    /// Creates a landmark; `visibility` and `presence` are given by models that estimate them (pose).
    public init(x: Float, y: Float, z: Float, visibility: Float? = nil, presence: Float? = nil) {
        self.x = x
        self.y = y
        self.z = z
        self.visibility = visibility
        self.presence = presence
    }
}

/// A landmark in real-world metres, relative to a model-specific origin (for hands: roughly the hand's centre; for
/// poses: the centre between the hips).
public struct Landmark: Sendable, Hashable, Codable {
    /// Horizontal position in metres, from the model's origin (the hand's or hips' centre).
    public var x: Float
    /// Vertical position in metres, downwards.
    public var y: Float
    /// Depth in metres (smaller is nearer the camera).
    public var z: Float
    /// How likely the landmark is visible, in [0, 1]; nil when the model does not say.
    public var visibility: Float?
    /// How likely the landmark is in the image, in [0, 1]; nil when the model does not say.
    public var presence: Float?

    /// Creates a landmark; `visibility` and `presence` are given by models that estimate them (pose).
    public init(x: Float, y: Float, z: Float, visibility: Float? = nil, presence: Float? = nil) {
        self.x = x
        self.y = y
        self.z = z
        self.visibility = visibility
        self.presence = presence
    }
}
