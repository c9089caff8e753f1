/// Geometry of a depthwise 2-D convolution over NHWC input: a convolution whose output channel `c` reads only input
/// channel `c / depthMultiplier`. Taps that fall outside the input read zero.
public struct DepthwiseConv2DGeometry: Sendable, Hashable {
    /// The extents and window, as for a full convolution; `outputChannels` is a multiple of `inputChannels`.
    public var convolution: Conv2DGeometry

    /// Creates a geometry from a convolution's extents and window (as TFLite does, the channel multiplier follows
    /// from the channel counts).
    public init(convolution: Conv2DGeometry) {
        self.convolution = convolution
    }

    /// Output channels per input channel, `outputChannels / inputChannels`.
    public var depthMultiplier: Int { convolution.outputChannels / convolution.inputChannels }

    /// Whether the convolution is valid and its output channels a whole multiple of its input channels.
    public var isValid: Bool {
        convolution.isValid && convolution.outputChannels % convolution.inputChannels == 0
    }
}
