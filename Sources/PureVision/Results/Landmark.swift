/// A landmark normalized to the input image: `x` and `y` in [0, 1] inside the image (they may fall outside),
/// `z` a relative depth on roughly the scale of `x` (smaller is closer to the camera).
public struct NormalizedLandmark: Sendable, Hashable, Codable {
    public var x: Float
    public var y: Float
    public var z: Float

    public init(x: Float, y: Float, z: Float) {
        self.x = x
        self.y = y
        self.z = z
    }
}

/// A landmark in real-world metres, relative to a model-specific origin (for hands: roughly the hand's centre).
public struct Landmark: Sendable, Hashable, Codable {
    public var x: Float
    public var y: Float
    public var z: Float

    public init(x: Float, y: Float, z: Float) {
        self.x = x
        self.y = y
        self.z = z
    }
}
