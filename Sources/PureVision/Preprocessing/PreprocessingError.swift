import PureVisionImage

/// Why image preprocessing options were rejected or an image could not be turned into a tensor.
///
/// The descriptions of the option errors are MediaPipe's own messages, so callers that match on them keep working.
public enum PreprocessingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `rotationDegrees` is not a multiple of 90.
    case rotationNotMultipleOf90(degrees: Int)
    /// The region of interest does not have left < right and top < bottom.
    case regionOfInterestNotOrdered(RectF)
    /// A region-of-interest coordinate is outside [0, 1] or not finite.
    case regionOfInterestOutOfRange(RectF)
    /// The task does not accept a region of interest.
    case regionOfInterestNotSupported
    /// A mirrored image orientation, which MediaPipe refuses.
    case mirroredOrientation(ImageOrientation)
    /// The rect to crop has a non-positive or non-finite size, or a non-finite centre or rotation.
    case invalidRect(NormalizedRect)
    /// An `ImageToTensorOptions` value is unusable; `reason` says which and why.
    case invalidOptions(reason: String)

    public var description: String {
        switch self {
        case .rotationNotMultipleOf90: "Expected rotation to be a multiple of 90°."
        case .regionOfInterestNotOrdered: "Expected RectF with left < right and top < bottom."
        case .regionOfInterestOutOfRange: "Expected RectF values to be in [0,1]."
        case .regionOfInterestNotSupported: "This task doesn't support region-of-interest."
        case .mirroredOrientation(let orientation):
            "Unsupported image orientation \(orientation): mirrored orientations cannot be processed."
        case .invalidRect(let rect): "invalid crop rect \(rect): the size must be positive and all values finite"
        case .invalidOptions(let reason): "invalid image-to-tensor options: \(reason)"
        }
    }
}
