import Foundation
import PureVision

/// Options of a selfie `Segmenter`: ML Kit's `SelfieSegmenterOptions` (`MLKSelfieSegmenterOptions`), with its
/// defaults. The model is MediaPipe's `selfie_segmentation.tflite` (256 × 256), run by the native `SelfieSegmenter`.
public final class SelfieSegmenterOptions {
    /// `.stream` (the default) for the frames of a video or camera stream, `.singleImage` for unrelated images. ML
    /// Kit also smooths stream masks over frames, by a method it does not publish; here each frame is segmented on
    /// its own, as the native task does, so both modes give the same masks.
    public var segmenterMode: SegmenterMode = .stream
    /// Whether the mask keeps the model's size (256 × 256) instead of being resized to the image's. Default false.
    public var shouldEnableRawSizeMask: Bool = false
    /// Beyond ML Kit (whose model ships inside the SDK): the directory holding `selfie_segmentation.tflite`. Nil (the
    /// default) looks, in order, in the `PUREVISION_MODEL_DIRECTORY` environment variable, the main bundle's resources
    /// when they hold the file, and `Models` under the current directory.
    public var modelDirectory: String?

    /// The model file these options run.
    static let modelFile = "selfie_segmentation.tflite"

    /// Creates options with ML Kit's defaults.
    public init() {}

    /// PureVision's options for these values.
    var native: PureVision.SelfieSegmenterOptions {
        PureVision.SelfieSegmenterOptions(
            baseOptions: BaseOptions(modelAssetPath: ModelLocation.path(of: Self.modelFile, in: modelDirectory)),
            segmenterMode: segmenterMode == .stream ? .stream : .singleImage,
            shouldEnableRawSizeMask: shouldEnableRawSizeMask)
    }
}
