/// One SSD anchor in tensor-normalized coordinates (0…1 across the model input).
///
/// The decoder adds the model's regressed offsets to the centre and scales them by the size; with
/// `fixedAnchorSize` the size is exactly 1 and the offsets are plain fractions of the input.
public struct SSDAnchor: Sendable, Hashable {
    /// Horizontal centre, tensor-normalized.
    public var xCenter: Float
    /// Vertical centre, tensor-normalized.
    public var yCenter: Float
    /// Width, tensor-normalized.
    public var width: Float
    /// Height, tensor-normalized.
    public var height: Float

    /// Creates an anchor from its centre and size.
    public init(xCenter: Float, yCenter: Float, width: Float, height: Float) {
        self.xCenter = xCenter
        self.yCenter = yCenter
        self.width = width
        self.height = height
    }
}
