/// An opaque 8-bit sRGB color for drawing on a `ImageCanvas`.
public struct RGBColor: Sendable, Hashable {
    /// Red.
    public var r: UInt8
    /// Green.
    public var g: UInt8
    /// Blue.
    public var b: UInt8

    /// Creates a color from its red, green and blue components.
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// (0, 0, 0).
    public static let black = RGBColor(0, 0, 0)
    /// (255, 255, 255).
    public static let white = RGBColor(255, 255, 255)
    /// (255, 0, 0).
    public static let red = RGBColor(255, 0, 0)
    /// (0, 255, 0).
    public static let green = RGBColor(0, 255, 0)
    /// (0, 0, 255).
    public static let blue = RGBColor(0, 0, 255)
    /// (255, 255, 0).
    public static let yellow = RGBColor(255, 255, 0)
    /// (0, 255, 255).
    public static let cyan = RGBColor(0, 255, 255)
    /// (255, 0, 255).
    public static let magenta = RGBColor(255, 0, 255)
    /// (255, 128, 0).
    public static let orange = RGBColor(255, 128, 0)
}
