// One file per task, in this order: options (a `TaskOptions` subclass with MediaPipe's defaults and a weak
// `…LiveStreamDelegate`), the delegate protocol, the result class (with a `convenience init` from the native
// result), and the task class (a native task plus a `LiveStreamRelay`; `init(modelPath:)`, `init(options:)`
// checking `LiveStreamDelegateRule`, MediaPipe's method names taking `MPImage`, `close()`). All nine tasks have this
// shape; a new one adds its own folder and file the same way, and its test file in Tests/PureVisionMediaPipeTests
// comparing with the native task.
import Foundation
import PureVision

/// Options of a `FaceDetector`: MediaPipe's `FaceDetectorOptions` (`MPPFaceDetectorOptions`), with its defaults.
public final class FaceDetectorOptions: TaskOptions {
    /// How the detector is fed. Default `.image`.
    public var runningMode: RunningMode = .image
    /// Detections scoring below this are dropped. Default 0.5.
    public var minDetectionConfidence: Float = 0.5
    /// Detections overlapping a better one by more than this IoU are merged into it. Default 0.3.
    public var minSuppressionThreshold: Float = 0.3
    /// Receives live-stream results (`.liveStream` mode only); held weakly, as in MediaPipe.
    public weak var faceDetectorLiveStreamDelegate: (any FaceDetectorLiveStreamDelegate)?

    /// Creates options with MediaPipe's defaults.
    public override init() { super.init() }
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
public final class FaceDetectorResult: Sendable {
    /// One detection per face, best first: a pixel box, one category (the score) and six keypoints (right eye,
    /// left eye, nose tip, mouth, right ear tragion, left ear tragion — the subject's right and left).
    public let detections: [Detection]
    /// The frame's timestamp (0 in image mode).
    public let timestampInMilliseconds: Int

    /// Creates a result, as MediaPipe's `init(detections:timestampInMilliseconds:)`.
    public init(detections: [Detection], timestampInMilliseconds: Int) {
        self.detections = detections
        self.timestampInMilliseconds = timestampInMilliseconds
    }

    /// The same detections as PureVision's result.
    convenience init(_ native: PureVision.FaceDetectorResult, timestampInMilliseconds: Int) {
        self.init(detections: native.detections.map(Detection.init), timestampInMilliseconds: timestampInMilliseconds)
    }
}

/// MediaPipe's `FaceDetector` (`MPPFaceDetector`) over PureVision's `FaceDetector` (BlazeFace short or full range).
public final class FaceDetector: Sendable {
    private let detector: PureVision.FaceDetector
    private let relay: LiveStreamRelay<FaceDetector>

    /// MediaPipe's `init(modelPath:)`: an image-mode detector for a BlazeFace `.tflite` model.
    /// - Throws: `VisionTaskError` for a missing or unsupported model.
    public convenience init(modelPath: String) throws {
        let options = FaceDetectorOptions()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    /// MediaPipe's `init(options:)`. The options are read once; later changes to them have no effect.
    /// - Throws: `VisionTaskError` for options out of range, a missing or unsupported model, or a live-stream
    ///   delegate missing in `.liveStream` mode or set in another mode.
    public init(options: FaceDetectorOptions) throws {
        let delegate = options.faceDetectorLiveStreamDelegate
        try LiveStreamDelegateRule.check(runningMode: options.runningMode, hasDelegate: delegate != nil)
        let relay = LiveStreamRelay<FaceDetector>(delegate: delegate)
        var handler: (@Sendable (LiveStreamEvent<PureVision.FaceDetectorResult>) -> Void)?
        if options.runningMode == .liveStream {
            handler = { event in
                relay.relay(event, to: (any FaceDetectorLiveStreamDelegate).self) {
                    detector, delegate, result, timestamp, error in
                    delegate.faceDetector(
                        detector,
                        didFinishDetection: result.map { FaceDetectorResult($0, timestampInMilliseconds: timestamp) },
                        timestampInMilliseconds: timestamp, error: error)
                }
            }
        }
        detector = try PureVision.FaceDetector(
            options: PureVision.FaceDetectorOptions(
                baseOptions: options.baseOptions.native, runningMode: options.runningMode,
                minDetectionConfidence: options.minDetectionConfidence,
                minSuppressionThreshold: options.minSuppressionThreshold, resultHandler: handler))
        self.relay = relay
        relay.attach(self)
    }

    /// MediaPipe's `detect(image:)` (`.image` mode).
    /// - Throws: `VisionTaskError` for the wrong running mode or an unusable image.
    public func detect(image: MPImage) throws -> FaceDetectorResult {
        try withExtendedLifetime(image) {
            FaceDetectorResult(try detector.detect(image: image.pixelImage), timestampInMilliseconds: 0)
        }
    }

    /// MediaPipe's `detect(videoFrame:timestampInMilliseconds:)` (`.video` mode); timestamps must increase.
    /// - Throws: `VisionTaskError` for the wrong running mode, a timestamp not after the previous one, or an
    ///   unusable image.
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> FaceDetectorResult {
        try withExtendedLifetime(image) {
            FaceDetectorResult(
                try detector.detect(videoFrame: image.pixelImage, timestampInMilliseconds: timestampInMilliseconds),
                timestampInMilliseconds: timestampInMilliseconds)
        }
    }

    /// MediaPipe's `detectAsync(image:timestampInMilliseconds:)` (`.liveStream` mode): returns at once; the result
    /// goes to the options' `faceDetectorLiveStreamDelegate`.
    /// - Throws: `VisionTaskError` for the wrong running mode or a timestamp not after the previous one.
    public func detectAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try withExtendedLifetime(image) {
            try detector.detectAsync(image: image.pixelImage, timestampInMilliseconds: timestampInMilliseconds)
        }
    }

    /// Beyond MediaPipe: finishes the queued live-stream frames, delivers their results and refuses further calls.
    public func close() { detector.close() }
}
