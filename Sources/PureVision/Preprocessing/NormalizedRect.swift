/// A rotated rectangle in normalized image coordinates: MediaPipe's `NormalizedRect`.
///
/// The centre and size are fractions of the image's width and height (x to the right, y down, origin at the
/// top-left corner of the stored pixels). `rotation` is in radians, counter-clockwise as seen on screen (MediaPipe's
/// convention: a positive rotation turns the crop so that content rotated clockwise in the image comes out upright).
public struct NormalizedRect: Sendable, Hashable, CustomStringConvertible {
    /// Centre x, as a fraction of the image width.
    public var xCenter: Float
    /// Centre y, as a fraction of the image height.
    public var yCenter: Float
    /// Width, as a fraction of the image width.
    public var width: Float
    /// Height, as a fraction of the image height.
    public var height: Float
    /// Rotation in radians.
    public var rotation: Float

    /// Creates a rect from its centre, size and rotation (radians).
    public init(xCenter: Float, yCenter: Float, width: Float, height: Float, rotation: Float = 0) {
        self.xCenter = xCenter
        self.yCenter = yCenter
        self.width = width
        self.height = height
        self.rotation = rotation
    }

    /// The whole image, unrotated: centre (0.5, 0.5), size 1 × 1.
    public static let fullImage = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 1, height: 1)

    public var description: String {
        "NormalizedRect(center: (\(xCenter), \(yCenter)), size: \(width) × \(height), rotation: \(rotation))"
    }
}
