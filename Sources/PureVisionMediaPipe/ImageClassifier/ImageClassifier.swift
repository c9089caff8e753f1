import Foundation
import PureVision

/// Options of an `ImageClassifier`: MediaPipe's `ImageClassifierOptions` (`MPPImageClassifierOptions`), with its
/// defaults.
public final class ImageClassifierOptions: ClassifierTaskOptions {
    /// Receives live-stream results (`.liveStream` mode only); held weakly, as in MediaPipe.
    public weak var imageClassifierLiveStreamDelegate: (any ImageClassifierLiveStreamDelegate)?
}

/// Receives a live-stream `ImageClassifier`'s results: MediaPipe's `ImageClassifierLiveStreamDelegate`
/// (`MPPImageClassifierLiveStreamDelegate`), without its `NSObjectProtocol` requirement so that it works on Linux.
///
/// Called on the classifier's own delivery thread, in timestamp order, once per processed frame; a frame dropped
/// because the classifier was busy is not reported (as in MediaPipe).
public protocol ImageClassifierLiveStreamDelegate: AnyObject {
    /// One frame's outcome: a result, or nil and the error.
    func imageClassifier(
        _ imageClassifier: ImageClassifier, didFinishClassification result: ImageClassifierResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}

/// What an `ImageClassifier` found in one image or frame: MediaPipe's `ImageClassifierResult`
/// (`MPPImageClassifierResult`).
public final class ImageClassifierResult: TaskResult, NativeResultConvertible, @unchecked Sendable {
    // @unchecked: as `TaskResult`'s, restated (Swift requires it); every stored property is an immutable value.
    /// The classifications, one per head: `result.classificationResult.classifications[0].categories`.
    public let classificationResult: ClassificationResult

    /// Creates a result, as MediaPipe's `init(classificationResult:timestampInMilliseconds:)`.
    public init(classificationResult: ClassificationResult, timestampInMilliseconds: Int) {
        self.classificationResult = classificationResult
        super.init(timestampInMilliseconds: timestampInMilliseconds)
    }

    /// The same classifications as PureVision's result.
    convenience init(_ native: PureVision.ImageClassifierResult, timestampInMilliseconds: Int) {
        self.init(
            classificationResult: ClassificationResult(
                classifications: native.classifications, timestampInMilliseconds: timestampInMilliseconds),
            timestampInMilliseconds: timestampInMilliseconds)
    }
}

/// MediaPipe's `ImageClassifier` (`MPPImageClassifier`) over PureVision's `ImageClassifier`: its model is a
/// `.tflite` image classifier.
public final class ImageClassifier: MediaPipeClassificationTask {
    /// What the task runs on (see `MediaPipeVisionTask`).
    public let core: TaskCore<ImageClassifier, PureVision.ImageClassifier, ImageClassifierResult>

    /// MediaPipe's `init(options:)`. The options are read once; later changes to them have no effect.
    /// - Throws: `VisionTaskError` for invalid options, a missing or unsupported model, or a live-stream delegate
    ///   missing in `.liveStream` mode or set in another mode.
    public init(options: ImageClassifierOptions) throws {
        core = try TaskCore(
            options: PureVision.ImageClassifierOptions(
                baseOptions: options.baseOptions.native, displayNamesLocale: options.displayNamesLocale,
                maxResults: options.maxResults, scoreThreshold: options.scoreThreshold,
                categoryAllowlist: options.categoryAllowlist, categoryDenylist: options.categoryDenylist),
            runningMode: options.runningMode, delegate: options.imageClassifierLiveStreamDelegate
        ) { $0.imageClassifier($1, didFinishClassification: $2, timestampInMilliseconds: $3, error: $4) }
        core.attach(self)
    }
}
