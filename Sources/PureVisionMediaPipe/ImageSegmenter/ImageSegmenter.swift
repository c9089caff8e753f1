import Foundation
import PureVision

/// Options of an `ImageSegmenter`: MediaPipe's `ImageSegmenterOptions` (`MPPImageSegmenterOptions`), with its
/// defaults.
public final class ImageSegmenterOptions: RunningModeTaskOptions {
    /// The locale of the display names, when the model has localized labels. Default `"en"`.
    public var displayNamesLocale: String = "en"
    /// Whether results have one confidence mask per class. Default true.
    public var shouldOutputConfidenceMasks: Bool = true
    /// Whether results have the category mask. Default false.
    public var shouldOutputCategoryMask: Bool = false
    /// Receives live-stream results (`.liveStream` mode only); held weakly, as in MediaPipe.
    public weak var imageSegmenterLiveStreamDelegate: (any ImageSegmenterLiveStreamDelegate)?
}

/// Receives a live-stream `ImageSegmenter`'s results: MediaPipe's `MPPImageSegmenterLiveStreamDelegate` (whose
/// header exports it to Swift under the name `ObjectDetectorLiveStreamDelegate`, a slip; this is the intended
/// name), without its `NSObjectProtocol` requirement so that it works on Linux.
///
/// Called on the segmenter's own delivery thread, in timestamp order, once per processed frame; a frame dropped
/// because the segmenter was busy is not reported (as in MediaPipe).
public protocol ImageSegmenterLiveStreamDelegate: AnyObject {
    /// One frame's outcome: a result, or nil and the error.
    func imageSegmenter(
        _ imageSegmenter: ImageSegmenter, didFinishSegmentation result: ImageSegmenterResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}

/// What an `ImageSegmenter` found in one image or frame: MediaPipe's `ImageSegmenterResult`
/// (`MPPImageSegmenterResult`). Masks have the input image's stored size.
public final class ImageSegmenterResult: TaskResult, NativeResultConvertible, @unchecked Sendable {
    // @unchecked: as `TaskResult`'s, restated (Swift requires it); every stored property is an immutable value.
    /// One `.float32` mask per class, in label order; nil unless `shouldOutputConfidenceMasks`.
    public let confidenceMasks: [Mask]?
    /// The `.uInt8` category mask (a class index per pixel); nil unless `shouldOutputCategoryMask`.
    public let categoryMask: Mask?
    /// The model's quality scores, one per class (1 when the model gives none).
    public let qualityScores: [NSNumber]?

    /// Creates a result, as MediaPipe's `init(confidenceMasks:categoryMask:qualityScores:timestampInMilliseconds:)`.
    public init(confidenceMasks: [Mask]?, categoryMask: Mask?, qualityScores: [NSNumber]?, timestampInMilliseconds: Int)
    {
        self.confidenceMasks = confidenceMasks
        self.categoryMask = categoryMask
        self.qualityScores = qualityScores
        super.init(timestampInMilliseconds: timestampInMilliseconds)
    }

    /// The same masks as PureVision's result, copied into `Mask`s.
    convenience init(_ native: PureVision.ImageSegmenterResult, timestampInMilliseconds: Int) {
        self.init(
            confidenceMasks: native.confidenceMasks?.map {
                Mask(floats: $0.values, width: $0.width, height: $0.height)
            },
            categoryMask: native.categoryMask.map { Mask(bytes: $0.values, width: $0.width, height: $0.height) },
            qualityScores: native.qualityScores.map { NSNumber(value: $0) },
            timestampInMilliseconds: timestampInMilliseconds)
    }
}

/// MediaPipe's `ImageSegmenter` (`MPPImageSegmenter`) over PureVision's `ImageSegmenter`: its model is a `.tflite`
/// segmenter; with the default options (`init(modelPath:)`) results have the confidence masks only.
public final class ImageSegmenter: MediaPipeSegmentationTask {
    /// What the task runs on (see `MediaPipeVisionTask`).
    public let core: TaskCore<ImageSegmenter, PureVision.ImageSegmenter, ImageSegmenterResult>

    /// The class names in mask order (MediaPipe's `labels`); empty for a model without labels.
    public var labels: [String] { core.native.labels }

    /// MediaPipe's `init(options:)`. The options are read once; later changes to them have no effect.
    /// - Throws: `VisionTaskError` when neither mask is requested, for a missing or unsupported model, or a
    ///   live-stream delegate missing in `.liveStream` mode or set in another mode.
    public init(options: ImageSegmenterOptions) throws {
        core = try TaskCore(
            options: PureVision.ImageSegmenterOptions(
                baseOptions: options.baseOptions.native, displayNamesLocale: options.displayNamesLocale,
                outputCategoryMask: options.shouldOutputCategoryMask,
                outputConfidenceMasks: options.shouldOutputConfidenceMasks),
            runningMode: options.runningMode, delegate: options.imageSegmenterLiveStreamDelegate
        ) { $0.imageSegmenter($1, didFinishSegmentation: $2, timestampInMilliseconds: $3, error: $4) }
        core.attach(self)
    }
}
