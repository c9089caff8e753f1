import Foundation
import PureVision

/// Options of a `PoseLandmarker`: MediaPipe's `PoseLandmarkerOptions` (`MPPPoseLandmarkerOptions`), with its
/// defaults.
public final class PoseLandmarkerOptions: RunningModeTaskOptions {
    /// The most poses reported. Default 1 (landmarks are smoothed over time only with 1, as in MediaPipe).
    public var numPoses: Int = 1
    /// Pose detections scoring below this are ignored. Default 0.5.
    public var minPoseDetectionConfidence: Float = 0.5
    /// A pose is reported only when its presence score exceeds this. Default 0.5.
    public var minPosePresenceConfidence: Float = 0.5
    /// Video and live stream: the overlap threshold for replacing a tracked pose by a new detection. Default 0.5.
    public var minTrackingConfidence: Float = 0.5
    /// Whether results have one segmentation mask per pose (MediaPipe's Swift name for the Python and C++
    /// `output_segmentation_masks`). Default false.
    public var shouldOutputSegmentationMasks: Bool = false
    /// Receives live-stream results (`.liveStream` mode only); held weakly, as in MediaPipe.
    public weak var poseLandmarkerLiveStreamDelegate: (any PoseLandmarkerLiveStreamDelegate)?
}

/// Receives a live-stream `PoseLandmarker`'s results: MediaPipe's `PoseLandmarkerLiveStreamDelegate`
/// (`MPPPoseLandmarkerLiveStreamDelegate`), without its `NSObjectProtocol` requirement so that it works on Linux.
///
/// Called on the landmarker's own delivery thread, in timestamp order, once per processed frame; a frame dropped
/// because the landmarker was busy is not reported (as in MediaPipe).
public protocol PoseLandmarkerLiveStreamDelegate: AnyObject {
    /// One frame's outcome: a result, or nil and the error.
    func poseLandmarker(
        _ poseLandmarker: PoseLandmarker, didFinishDetection result: PoseLandmarkerResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}

/// The poses found in one image or frame: MediaPipe's `PoseLandmarkerResult` (`MPPPoseLandmarkerResult`). The i-th
/// entry of each array describes pose i.
public final class PoseLandmarkerResult: TaskResult, NativeResultConvertible, @unchecked Sendable {
    // @unchecked: as `TaskResult`'s, restated (Swift requires it); every stored property is an immutable value.
    /// Per pose, 33 landmarks normalized to the image, each with its visibility and presence.
    public let landmarks: [[NormalizedLandmark]]
    /// Per pose, the 33 landmarks in metres, origin between the hips, with visibility and presence.
    public let worldLandmarks: [[Landmark]]
    /// Per pose, a `.float32` mask the size of the input image; empty unless `shouldOutputSegmentationMasks`.
    public let segmentationMasks: [Mask]

    /// Creates a result, as MediaPipe's `init(landmarks:worldLandmarks:segmentationMasks:timestampInMilliseconds:)`;
    /// nil masks are stored as none.
    public init(
        landmarks: [[NormalizedLandmark]], worldLandmarks: [[Landmark]], segmentationMasks: [Mask]?,
        timestampInMilliseconds: Int
    ) {
        self.landmarks = landmarks
        self.worldLandmarks = worldLandmarks
        self.segmentationMasks = segmentationMasks ?? []
        super.init(timestampInMilliseconds: timestampInMilliseconds)
    }

    /// The same poses as PureVision's result, masks copied into `Mask`s.
    convenience init(_ native: PureVision.PoseLandmarkerResult, timestampInMilliseconds: Int) {
        self.init(
            landmarks: native.landmarks.map { $0.map(NormalizedLandmark.init) },
            worldLandmarks: native.worldLandmarks.map { $0.map(Landmark.init) },
            segmentationMasks: native.segmentationMasks?.map {
                Mask(floats: $0.values, width: $0.width, height: $0.height)
            }, timestampInMilliseconds: timestampInMilliseconds)
    }
}

/// MediaPipe's `PoseLandmarker` (`MPPPoseLandmarker`) over PureVision's `PoseLandmarker`: pose detection, 33 body
/// landmarks and world landmarks per pose, optional segmentation masks, tracking and smoothing in video and
/// live-stream modes (in `.image` mode pose detection runs on every call). Its model is a `pose_landmarker_*.task`
/// bundle.
public final class PoseLandmarker: MediaPipeDetectionTask {
    /// The 35 connections between the pose landmarks, face, arms, torso and legs (MediaPipe's `poseLandmarks`, the
    /// same pairs in the same order as `MPPPoseLandmarksConnections`).
    public static let poseLandmarks = Connection.list(PoseConnection.poseLandmarks)

    /// What the task runs on (see `MediaPipeVisionTask`).
    public let core: TaskCore<PoseLandmarker, PureVision.PoseLandmarker, PoseLandmarkerResult>

    /// MediaPipe's `init(options:)`. The options are read once; later changes to them have no effect.
    /// - Throws: `VisionTaskError` for options out of range, a missing or malformed bundle, or a live-stream
    ///   delegate missing in `.liveStream` mode or set in another mode.
    public init(options: PoseLandmarkerOptions) throws {
        core = try TaskCore(
            options: PureVision.PoseLandmarkerOptions(
                baseOptions: options.baseOptions.native, numPoses: options.numPoses,
                minPoseDetectionConfidence: options.minPoseDetectionConfidence,
                minPosePresenceConfidence: options.minPosePresenceConfidence,
                minTrackingConfidence: options.minTrackingConfidence,
                outputSegmentationMasks: options.shouldOutputSegmentationMasks),
            runningMode: options.runningMode, delegate: options.poseLandmarkerLiveStreamDelegate
        ) { $0.poseLandmarker($1, didFinishDetection: $2, timestampInMilliseconds: $3, error: $4) }
        core.attach(self)
    }
}
