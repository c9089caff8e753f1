import Foundation
import PureVision

/// Options of a `GestureRecognizer`: MediaPipe's `GestureRecognizerOptions` (`MPPGestureRecognizerOptions`), with
/// its defaults.
public final class GestureRecognizerOptions: HandTaskOptions {
    /// How the canned classifier (None, Closed_Fist, Open_Palm, Pointing_Up, Thumb_Down, Thumb_Up, Victory,
    /// ILoveYou) filters its categories. Default nil: the model's own settings, including its metadata's score
    /// threshold if it has one.
    public var cannedGesturesClassifierOptions: ClassifierOptions?
    /// How the custom classifier of a MediaPipe Model Maker bundle filters its categories. Default nil, as for the
    /// canned one.
    public var customGesturesClassifierOptions: ClassifierOptions?
    /// Receives live-stream results (`.liveStream` mode only); held weakly, as in MediaPipe.
    public weak var gestureRecognizerLiveStreamDelegate: (any GestureRecognizerLiveStreamDelegate)?
}

/// Receives a live-stream `GestureRecognizer`'s results: MediaPipe's `GestureRecognizerLiveStreamDelegate`
/// (`MPPGestureRecognizerLiveStreamDelegate`), without its `NSObjectProtocol` requirement so that it works on Linux.
///
/// Called on the recognizer's own delivery thread, in timestamp order, once per processed frame; a frame dropped
/// because the recognizer was busy is not reported (as in MediaPipe).
public protocol GestureRecognizerLiveStreamDelegate: AnyObject {
    /// One frame's outcome: a result, or nil and the error.
    func gestureRecognizer(
        _ gestureRecognizer: GestureRecognizer, didFinishGestureRecognition result: GestureRecognizerResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}

/// The hands and gestures found in one image or frame: MediaPipe's `GestureRecognizerResult`
/// (`MPPGestureRecognizerResult`). The i-th entry of `handedness`, `landmarks` and `worldLandmarks` describes hand
/// i; `gestures` has one list per hand that got a prediction, in hand order (as in MediaPipe, a hand whose
/// categories were all filtered away has none, and then `gestures` is shorter than the hand lists).
public final class GestureRecognizerResult: TaskResult, NativeResultConvertible, @unchecked Sendable {
    // @unchecked: as `TaskResult`'s, restated (Swift requires it); every stored property is an immutable value.
    /// Per recognized hand, one category: the gesture's name in `categoryName`, its score, index −1.
    public let gestures: [[ResultCategory]]
    /// Per hand, one category: "Right" (index 0) or "Left" (index 1) with its score.
    public let handedness: [[ResultCategory]]
    /// Per hand, 21 landmarks normalized to the image.
    public let landmarks: [[NormalizedLandmark]]
    /// Per hand, the 21 landmarks in metres around the hand's approximate centre.
    public let worldLandmarks: [[Landmark]]

    /// Creates a result, as MediaPipe's
    /// `init(gestures:handedness:landmarks:worldLandmarks:timestampInMilliseconds:)`.
    public init(
        gestures: [[ResultCategory]], handedness: [[ResultCategory]], landmarks: [[NormalizedLandmark]],
        worldLandmarks: [[Landmark]], timestampInMilliseconds: Int
    ) {
        self.gestures = gestures
        self.handedness = handedness
        self.landmarks = landmarks
        self.worldLandmarks = worldLandmarks
        super.init(timestampInMilliseconds: timestampInMilliseconds)
    }

    /// The same hands and gestures as PureVision's result.
    convenience init(_ native: PureVision.GestureRecognizerResult, timestampInMilliseconds: Int) {
        self.init(
            gestures: native.gestures, handedness: native.handedness,
            landmarks: native.landmarks.map { $0.map(NormalizedLandmark.init) },
            worldLandmarks: native.worldLandmarks.map { $0.map(Landmark.init) },
            timestampInMilliseconds: timestampInMilliseconds)
    }
}

/// MediaPipe's `GestureRecognizer` (`MPPGestureRecognizer`) over PureVision's `GestureRecognizer`: the hand
/// landmarker's pipeline and tracking, then each hand's gesture from the canned classifier and, for a Model Maker
/// bundle, the custom one (in `.image` mode palm detection runs on every call). Its model is a
/// `gesture_recognizer.task` bundle.
public final class GestureRecognizer: MediaPipeGestureRecognitionTask {
    /// What the task runs on (see `MediaPipeVisionTask`).
    public let core: TaskCore<GestureRecognizer, PureVision.GestureRecognizer, GestureRecognizerResult>

    /// MediaPipe's `init(options:)`. The options are read once; later changes to them have no effect.
    /// - Throws: `VisionTaskError` for options out of range (classifier options included), a missing or malformed
    ///   bundle, or a live-stream delegate missing in `.liveStream` mode or set in another mode.
    public init(options: GestureRecognizerOptions) throws {
        core = try TaskCore(
            options: PureVision.GestureRecognizerOptions(
                baseOptions: options.baseOptions.native, numHands: options.numHands,
                minHandDetectionConfidence: options.minHandDetectionConfidence,
                minHandPresenceConfidence: options.minHandPresenceConfidence,
                minTrackingConfidence: options.minTrackingConfidence,
                cannedGesturesClassifierOptions: options.cannedGesturesClassifierOptions?.nativeGestureOptions
                    ?? GestureClassifierOptions(),
                customGesturesClassifierOptions: options.customGesturesClassifierOptions?.nativeGestureOptions
                    ?? GestureClassifierOptions()),
            runningMode: options.runningMode, delegate: options.gestureRecognizerLiveStreamDelegate
        ) { $0.gestureRecognizer($1, didFinishGestureRecognition: $2, timestampInMilliseconds: $3, error: $4) }
        core.attach(self)
    }
}
