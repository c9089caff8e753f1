import Foundation
import PureVision

/// Options of an `ImageLabeler`: ML Kit's `ImageLabelerOptions` (`MLKImageLabelerOptions`), the base labeler.
///
/// ML Kit's base model and its 400+ labels are not published. PureVision's base labeler is MediaPipe's
/// `efficientnet_lite0.tflite`, an ImageNet classifier: its labels are ImageNet's 1,000 classes ("tabby",
/// "espresso", "orange" …), not ML Kit's. An app that needs other labels passes its own classifier with
/// `CustomImageLabelerOptions(localModel: LocalModel(path:))`, as ML Kit's custom-model labeler does.
public class ImageLabelerOptions {
    /// Labels scoring below this are not reported; in [0, 1]. Nil (the default) uses ML Kit's 0.5. A value outside
    /// [0, 1] is reported as an error by the labeler's calls (ML Kit falls back to the default).
    public var confidenceThreshold: NSNumber?
    /// Beyond ML Kit (whose model ships inside the SDK): the directory holding `efficientnet_lite0.tflite`. Nil (the
    /// default) looks, in order, in the `PUREVISION_MODEL_DIRECTORY` environment variable, the main bundle's resources
    /// when they hold the file, and `Models` under the current directory.
    public var modelDirectory: String?

    /// The threshold when `confidenceThreshold` is nil (ML Kit's).
    static let defaultConfidenceThreshold: Float = 0.5
    /// The base model file.
    static let modelFile = "efficientnet_lite0.tflite"

    /// Creates options with ML Kit's defaults.
    public init() {}

    /// The model these options run.
    var modelPath: String { ModelLocation.path(of: Self.modelFile, in: modelDirectory) }
    /// The most labels reported; −1 for all above the threshold.
    var maxResults: Int { -1 }

    /// PureVision's options for these values.
    /// - Throws: `VisionTaskError.invalidOption` for a threshold outside [0, 1] or a maximum count below 1.
    func native() throws(VisionTaskError) -> ImageClassifierOptions {
        let threshold = try OptionCheck.fraction(confidenceThreshold?.doubleValue, name: "confidenceThreshold")
        return ImageClassifierOptions(
            baseOptions: BaseOptions(modelAssetPath: modelPath), maxResults: maxResults,
            scoreThreshold: threshold ?? Self.defaultConfidenceThreshold)
    }
}

/// A classifier model file: ML Kit's `LocalModel` (`MLKLocalModel`), for `CustomImageLabelerOptions`.
public final class LocalModel: Sendable {
    /// The `.tflite` file: an image classifier with MediaPipe / TFLite Support metadata (its labels come from there).
    public let path: String

    /// ML Kit's `LocalModel(path:)`.
    public init(path: String) { self.path = path }
}

/// Options of an `ImageLabeler` running the app's own classifier: ML Kit's `CustomImageLabelerOptions`
/// (`MLKCustomImageLabelerOptions`).
public final class CustomImageLabelerOptions: ImageLabelerOptions {
    /// The classifier.
    public let localModel: LocalModel
    /// The most labels reported, best first (≥ 1). Default 10, as in ML Kit.
    public var maxResultCount: Int = 10

    /// ML Kit's `CustomImageLabelerOptions(localModel:)`.
    public init(localModel: LocalModel) {
        self.localModel = localModel
        super.init()
    }

    override var modelPath: String { localModel.path }

    override var maxResults: Int { maxResultCount }

    override func native() throws(VisionTaskError) -> ImageClassifierOptions {
        guard maxResultCount >= 1 else {
            throw .invalidOption(name: "maxResultCount", reason: "must be ≥ 1, got \(maxResultCount)")
        }
        return try super.native()
    }
}
