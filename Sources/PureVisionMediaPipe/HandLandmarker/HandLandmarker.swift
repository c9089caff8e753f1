import Foundation
import PureVision

/// Options of a `HandLandmarker`: MediaPipe's `HandLandmarkerOptions` (`MPPHandLandmarkerOptions`), with its
/// defaults.
public final class HandLandmarkerOptions: HandTaskOptions {
    /// Receives live-stream results (`.liveStream` mode only); held weakly, as in MediaPipe.
    public weak var handLandmarkerLiveStreamDelegate: (any HandLandmarkerLiveStreamDelegate)?
}

/// Receives a live-stream `HandLandmarker`'s results: MediaPipe's `HandLandmarkerLiveStreamDelegate`
/// (`MPPHandLandmarkerLiveStreamDelegate`), without its `NSObjectProtocol` requirement so that it works on Linux too.
///
/// Called on the landmarker's own delivery thread, in timestamp order, once per processed frame; a frame dropped
/// because the landmarker was busy is not reported (as in MediaPipe).
public protocol HandLandmarkerLiveStreamDelegate: AnyObject {
    /// One frame's outcome: a result, or nil and the error.
    func handLandmarker(
        _ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}

/// The hands found in one image or frame: MediaPipe's `HandLandmarkerResult` (`MPPHandLandmarkerResult`). The i-th
/// entry of each array describes hand i.
public final class HandLandmarkerResult: TaskResult, NativeResultConvertible, @unchecked Sendable {
    // @unchecked: as `TaskResult`'s, restated (Swift requires it); every stored property is an immutable value.
    /// Per hand, 21 landmarks normalized to the image.
    public let landmarks: [[NormalizedLandmark]]
    /// Per hand, the 21 landmarks in metres around the hand's approximate centre.
    public let worldLandmarks: [[Landmark]]
    /// Per hand, one category: "Right" (index 0) or "Left" (index 1) with its score.
    public let handedness: [[ResultCategory]]

    /// Creates a result, as MediaPipe's `init(landmarks:worldLandmarks:handedness:timestampInMilliseconds:)`.
    public init(
        landmarks: [[NormalizedLandmark]], worldLandmarks: [[Landmark]], handedness: [[ResultCategory]],
        timestampInMilliseconds: Int
    ) {
        self.landmarks = landmarks
        self.worldLandmarks = worldLandmarks
        self.handedness = handedness
        super.init(timestampInMilliseconds: timestampInMilliseconds)
    }

    /// The same hands as PureVision's result.
    convenience init(_ native: PureVision.HandLandmarkerResult, timestampInMilliseconds: Int) {
        self.init(
            landmarks: native.landmarks.map { $0.map(NormalizedLandmark.init) },
            worldLandmarks: native.worldLandmarks.map { $0.map(Landmark.init) }, handedness: native.handedness,
            timestampInMilliseconds: timestampInMilliseconds)
    }
}

/// MediaPipe's `HandLandmarker` (`MPPHandLandmarker`) over PureVision's `HandLandmarker`: palm detection, 21 hand
/// landmarks, world landmarks and handedness per hand, tracking in video and live-stream modes (in `.image` mode
/// palm detection runs on every call). Its model is a `hand_landmarker.task` bundle.
public final class HandLandmarker: MediaPipeDetectionTask {
    /// The connections between the palm's landmarks (MediaPipe's `handPalmConnections`).
    public static let handPalmConnections = Connection.list([(0, 1), (0, 5), (9, 13), (13, 17), (5, 9), (0, 17)])
    /// The thumb's connections (`handThumbConnections`).
    public static let handThumbConnections = Connection.list([(1, 2), (2, 3), (3, 4)])
    /// The index finger's connections (`handIndexFingerConnections`).
    public static let handIndexFingerConnections = Connection.list([(5, 6), (6, 7), (7, 8)])
    /// The middle finger's connections (`handMiddleFingerConnections`).
    public static let handMiddleFingerConnections = Connection.list([(9, 10), (10, 11), (11, 12)])
    /// The ring finger's connections (`handRingFingerConnections`).
    public static let handRingFingerConnections = Connection.list([(13, 14), (14, 15), (15, 16)])
    /// The pinky's connections (`handPinkyConnections`).
    public static let handPinkyConnections = Connection.list([(17, 18), (18, 19), (19, 20)])
    /// Every connection of the hand: palm, thumb, index, middle, ring, pinky (`handConnections`).
    public static let handConnections =
        handPalmConnections + handThumbConnections + handIndexFingerConnections + handMiddleFingerConnections
        + handRingFingerConnections + handPinkyConnections

    /// What the task runs on (see `MediaPipeVisionTask`).
    public let core: TaskCore<HandLandmarker, PureVision.HandLandmarker, HandLandmarkerResult>

    /// MediaPipe's `init(options:)`. The options are read once; later changes to them have no effect.
    /// - Throws: `VisionTaskError` for options out of range, a missing or malformed bundle, or a live-stream
    ///   delegate missing in `.liveStream` mode or set in another mode.
    public init(options: HandLandmarkerOptions) throws {
        core = try TaskCore(
            options: PureVision.HandLandmarkerOptions(
                baseOptions: options.baseOptions.native, numHands: options.numHands,
                minHandDetectionConfidence: options.minHandDetectionConfidence,
                minHandPresenceConfidence: options.minHandPresenceConfidence,
                minTrackingConfidence: options.minTrackingConfidence),
            runningMode: options.runningMode, delegate: options.handLandmarkerLiveStreamDelegate
        ) { $0.handLandmarker($1, didFinishDetection: $2, timestampInMilliseconds: $3, error: $4) }
        core.attach(self)
    }
}
