import Foundation
import PureVision

/// Options of an `ObjectDetector`: MediaPipe's `ObjectDetectorOptions` (`MPPObjectDetectorOptions`), with its
/// defaults.
public final class ObjectDetectorOptions: ClassifierTaskOptions {
    /// Receives live-stream results (`.liveStream` mode only); held weakly, as in MediaPipe.
    public weak var objectDetectorLiveStreamDelegate: (any ObjectDetectorLiveStreamDelegate)?
}

/// Receives a live-stream `ObjectDetector`'s results: MediaPipe's `ObjectDetectorLiveStreamDelegate`
/// (`MPPObjectDetectorLiveStreamDelegate`), without its `NSObjectProtocol` requirement so that it works on Linux.
///
/// Called on the detector's own delivery thread, in timestamp order, once per processed frame; a frame dropped
/// because the detector was busy is not reported (as in MediaPipe).
public protocol ObjectDetectorLiveStreamDelegate: AnyObject {
    /// One frame's outcome: a result, or nil and the error.
    func objectDetector(
        _ objectDetector: ObjectDetector, didFinishDetection result: ObjectDetectorResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}

/// The objects found in one image or frame: MediaPipe's `ObjectDetectorResult` (`MPPObjectDetectorResult`).
public final class ObjectDetectorResult: TaskResult, NativeResultConvertible, @unchecked Sendable {
    // @unchecked: as `TaskResult`'s, restated (Swift requires it); every stored property is an immutable value.
    /// The detections, best first: a `CGRect` box in whole pixels of the stored image, the categories, no
    /// keypoints for MediaPipe's detectors.
    ///
    /// As in MediaPipe, a category named by the model's labels has index −1 (MediaPipe's graph replaces the class
    /// index by the label); PureVision's native result keeps the index.
    public let detections: [Detection]

    /// Creates a result, as MediaPipe's `init(detections:timestampInMilliseconds:)`.
    public init(detections: [Detection], timestampInMilliseconds: Int) {
        self.detections = detections
        super.init(timestampInMilliseconds: timestampInMilliseconds)
    }

    /// The same detections as PureVision's result, with MediaPipe's category indices.
    convenience init(_ native: PureVision.ObjectDetectorResult, timestampInMilliseconds: Int) {
        self.init(
            detections: native.detections.map { detection in
                var labelled = detection
                labelled.categories = detection.categories.map { category in
                    var category = category
                    if category.categoryName != nil { category.index = -1 }
                    return category
                }
                return Detection(labelled)
            }, timestampInMilliseconds: timestampInMilliseconds)
    }
}

/// MediaPipe's `ObjectDetector` (`MPPObjectDetector`) over PureVision's `ObjectDetector`: its model is a `.tflite`
/// SSD detector with MediaPipe's metadata, such as EfficientDet-Lite.
public final class ObjectDetector: MediaPipeDetectionTask {
    /// What the task runs on (see `MediaPipeVisionTask`).
    public let core: TaskCore<ObjectDetector, PureVision.ObjectDetector, ObjectDetectorResult>

    /// MediaPipe's `init(options:)`. The options are read once; later changes to them have no effect.
    /// - Throws: `VisionTaskError` for invalid options (`maxResults` 0, both category lists), a missing or
    ///   unsupported model, or a live-stream delegate missing in `.liveStream` mode or set in another mode.
    public init(options: ObjectDetectorOptions) throws {
        core = try TaskCore(
            options: PureVision.ObjectDetectorOptions(
                baseOptions: options.baseOptions.native, displayNamesLocale: options.displayNamesLocale,
                maxResults: options.maxResults, scoreThreshold: options.scoreThreshold,
                categoryAllowlist: options.categoryAllowlist, categoryDenylist: options.categoryDenylist),
            runningMode: options.runningMode, delegate: options.objectDetectorLiveStreamDelegate
        ) { $0.objectDetector($1, didFinishDetection: $2, timestampInMilliseconds: $3, error: $4) }
        core.attach(self)
    }
}
