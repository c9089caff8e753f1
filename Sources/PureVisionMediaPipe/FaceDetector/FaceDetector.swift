// One file per task, in this order: options (a `RunningModeTaskOptions` subclass, or one of `ClassifierTaskOptions` /
// `HandTaskOptions` for the fields two tasks share, with MediaPipe's defaults and a weak `…LiveStreamDelegate`), the
// delegate protocol, the result class (a `TaskResult` subclass, `NativeResultConvertible`: a `convenience init` from
// the native result), and the task class, conforming to the `MediaPipeVisionTask` protocol of its verb, which gives it
// `init(modelPath:)`, MediaPipe's calls taking `MPImage` and `close()`: it declares its `TaskCore` and
// `init(options:)`, which maps the options and names the delegate's method. All nine tasks have this shape; a new one
// adds its own folder and file the same way, its native conformances in `Core/NativeTaskConformances.swift`, and its
// test file in Tests/PureVisionMediaPipeTests comparing with the native task.
import Foundation
import PureVision

/// Options of a `FaceDetector`: MediaPipe's `FaceDetectorOptions` (`MPPFaceDetectorOptions`), with its defaults.
public final class FaceDetectorOptions: RunningModeTaskOptions {
    /// Detections scoring below this are dropped. Default 0.5.
    public var minDetectionConfidence: Float = 0.5
    /// Detections overlapping a better one by more than this IoU are merged into it. Default 0.3.
    public var minSuppressionThreshold: Float = 0.3
    /// Receives live-stream results (`.liveStream` mode only); held weakly, as in MediaPipe.
    public weak var faceDetectorLiveStreamDelegate: (any FaceDetectorLiveStreamDelegate)?
}

/// Receives a live-stream `FaceDetector`'s results: MediaPipe's `FaceDetectorLiveStreamDelegate`
/// (`MPPFaceDetectorLiveStreamDelegate`), without its `NSObjectProtocol` requirement so that it works on Linux.
///
/// Called on the detector's own delivery thread, in timestamp order, once per processed frame; a frame dropped
/// because the detector was busy is not reported (as in MediaPipe).
public protocol FaceDetectorLiveStreamDelegate: AnyObject {
    /// One frame's outcome: a result, or nil and the error.
    func faceDetector(
        _ faceDetector: FaceDetector, didFinishDetection result: FaceDetectorResult?, timestampInMilliseconds: Int,
        error: (any Error)?)
}

/// The faces found in one image or frame: MediaPipe's `FaceDetectorResult` (`MPPFaceDetectorResult`).
public final class FaceDetectorResult: TaskResult, NativeResultConvertible, @unchecked Sendable {
    // @unchecked: as `TaskResult`'s, restated (Swift requires it); every stored property is an immutable value.
    /// One detection per face, best first: a pixel box, one category (the score) and six keypoints (right eye,
    /// left eye, nose tip, mouth, right ear tragion, left ear tragion — the subject's right and left).
    public let detections: [Detection]

    /// Creates a result, as MediaPipe's `init(detections:timestampInMilliseconds:)`.
    public init(detections: [Detection], timestampInMilliseconds: Int) {
        self.detections = detections
        super.init(timestampInMilliseconds: timestampInMilliseconds)
    }

    /// The same detections as PureVision's result.
    convenience init(_ native: PureVision.FaceDetectorResult, timestampInMilliseconds: Int) {
        self.init(detections: native.detections.map(Detection.init), timestampInMilliseconds: timestampInMilliseconds)
    }
}

/// MediaPipe's `FaceDetector` (`MPPFaceDetector`) over PureVision's `FaceDetector`: its model is a BlazeFace
/// `.tflite` model (short or full range).
public final class FaceDetector: MediaPipeDetectionTask {
    /// What the task runs on (see `MediaPipeVisionTask`).
    public let core: TaskCore<FaceDetector, PureVision.FaceDetector, FaceDetectorResult>

    /// MediaPipe's `init(options:)`. The options are read once; later changes to them have no effect.
    /// - Throws: `VisionTaskError` for options out of range, a missing or unsupported model, or a live-stream
    ///   delegate missing in `.liveStream` mode or set in another mode.
    public init(options: FaceDetectorOptions) throws {
        core = try TaskCore(
            options: PureVision.FaceDetectorOptions(
                baseOptions: options.baseOptions.native, minDetectionConfidence: options.minDetectionConfidence,
                minSuppressionThreshold: options.minSuppressionThreshold),
            runningMode: options.runningMode, delegate: options.faceDetectorLiveStreamDelegate
        ) { $0.faceDetector($1, didFinishDetection: $2, timestampInMilliseconds: $3, error: $4) }
        core.attach(self)
    }
}
