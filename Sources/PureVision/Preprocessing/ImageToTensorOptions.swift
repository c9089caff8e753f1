/// How pixels are sampled where the crop extends beyond the image.
public enum BorderMode: Sendable, Hashable {
    /// Outside pixels are black (OpenCV `BORDER_CONSTANT` with 0; MediaPipe `BORDER_ZERO`).
    case zero
    /// Outside pixels repeat the nearest edge pixel (OpenCV and MediaPipe `BORDER_REPLICATE`).
    case replicate
}

/// The shape and value range of the tensor an `ImageToTensorConverter` writes: MediaPipe's
/// `ImageToTensorCalculatorOptions` for the CPU path.
///
/// The tensor is float32 NHWC `[1, outputHeight, outputWidth, 3]`, RGB. An 8-bit level `v` becomes
/// `v·scale + range.min` with `scale = (range.max − range.min) / 255`.
public struct ImageToTensorOptions: Sendable {
    /// Tensor width in pixels (> 0).
    public var outputWidth: Int
    /// Tensor height in pixels (> 0).
    public var outputHeight: Int
    /// Letterbox: grow the crop so that its aspect ratio is the tensor's, and report the padding.
    public var keepAspectRatio: Bool
    /// What is sampled outside the image.
    public var border: BorderMode
    /// The float values that 8-bit levels 0 and 255 map to; `min < max`.
    public var range: (min: Float, max: Float)

    /// The largest `outputWidth` or `outputHeight` accepted.
    public static let maximumDimension = 8192

    /// Creates options. MediaPipe's defaults for an unset border are `.replicate`.
    public init(
        outputWidth: Int, outputHeight: Int, keepAspectRatio: Bool = false, border: BorderMode = .replicate,
        range: (min: Float, max: Float) = (0, 1)
    ) {
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
        self.keepAspectRatio = keepAspectRatio
        self.border = border
        self.range = range
    }

    /// The multiplier of an 8-bit level: `(max − min) / 255` in Float, as MediaPipe's `GetValueRangeTransformation`.
    public var scale: Float { (range.max - range.min) / 255 }

    /// Checks the sizes (1 … `maximumDimension`) and the range (finite, min < max).
    /// - Throws: `PreprocessingError.invalidOptions`.
    public func validate() throws(PreprocessingError) {
        guard (1...Self.maximumDimension).contains(outputWidth), (1...Self.maximumDimension).contains(outputHeight)
        else {
            throw .invalidOptions(
                reason: "output size \(outputWidth)×\(outputHeight) must be within 1…\(Self.maximumDimension)")
        }
        guard range.min.isFinite, range.max.isFinite, range.min < range.max else {
            throw .invalidOptions(reason: "range [\(range.min), \(range.max)] must be finite with min < max")
        }
    }
}
