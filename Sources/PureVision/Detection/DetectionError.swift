/// Why a detection-side computation refused its input: options or tensors that do not fit together.
///
/// These inputs may come from outside (model outputs, model metadata, a caller's options), so every
/// inconsistency MediaPipe would `CHECK`-fail on, or index out of bounds with, is reported here instead.
public enum DetectionError: Error, Sendable, Equatable {
    /// The SSD anchor options are unusable; the message names the field and the values seen.
    case invalidAnchorOptions(String)
    /// The decoder options are unusable; the message names the field and the values seen.
    case invalidDecoderOptions(String)
    /// A raw tensor holds fewer floats than the options require.
    case tensorTooSmall(tensor: String, required: Int, actual: Int)
    /// Fewer anchors were supplied than the options' `numBoxes`.
    case anchorCountMismatch(required: Int, actual: Int)
    /// A projection matrix must be 16 floats (4×4, row-major).
    case invalidMatrix(count: Int)
    /// A keypoint index names a keypoint the detection does not have.
    case keypointIndexOutOfRange(index: Int, keypointCount: Int)
}
