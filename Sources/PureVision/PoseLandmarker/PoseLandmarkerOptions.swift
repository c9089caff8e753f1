/// Options of a `PoseLandmarker`, with MediaPipe Tasks' names and defaults.
public struct PoseLandmarkerOptions: Sendable {
    /// The `pose_landmarker_*.task` bundle (a ZIP holding `pose_detector.tflite` and
    /// `pose_landmarks_detector.tflite`).
    public var baseOptions: BaseOptions
    /// How the landmarker is fed. Default `.image`.
    public var runningMode: RunningMode
    /// The most poses reported (≥ 1). Default 1. In video and live-stream modes landmarks are smoothed over time
    /// only when this is 1, as in MediaPipe.
    public var numPoses: Int
    /// Pose detections scoring below this are ignored (a score equal to it is kept). In [0, 1]; default 0.5.
    public var minPoseDetectionConfidence: Float
    /// A pose is reported only when the landmark model's pose presence score is above this. In [0, 1];
    /// default 0.5.
    public var minPosePresenceConfidence: Float
    /// Video / live stream: a newly detected pose region replaces a tracked one when their boxes overlap by an
    /// IoU above this (MediaPipe uses the option only as that threshold). In [0, 1]; default 0.5.
    public var minTrackingConfidence: Float
    /// Also return one segmentation mask per pose (float, the input's size). Default false.
    public var outputSegmentationMasks: Bool
    /// Receives every live-stream frame's outcome (required in `.liveStream` mode only).
    public var resultHandler: (@Sendable (LiveStreamEvent<PoseLandmarkerResult>) -> Void)?

    /// Creates options.
    public init(
        baseOptions: BaseOptions, runningMode: RunningMode = .image, numPoses: Int = 1,
        minPoseDetectionConfidence: Float = 0.5, minPosePresenceConfidence: Float = 0.5,
        minTrackingConfidence: Float = 0.5, outputSegmentationMasks: Bool = false,
        resultHandler: (@Sendable (LiveStreamEvent<PoseLandmarkerResult>) -> Void)? = nil
    ) {
        self.baseOptions = baseOptions
        self.runningMode = runningMode
        self.numPoses = numPoses
        self.minPoseDetectionConfidence = minPoseDetectionConfidence
        self.minPosePresenceConfidence = minPosePresenceConfidence
        self.minTrackingConfidence = minTrackingConfidence
        self.outputSegmentationMasks = outputSegmentationMasks
        self.resultHandler = resultHandler
    }

    func validate() throws(VisionTaskError) {
        try OptionChecks.atLeastOne(numPoses, name: "numPoses")
        try OptionChecks.fractions([
            ("minPoseDetectionConfidence", minPoseDetectionConfidence),
            ("minPosePresenceConfidence", minPosePresenceConfidence),
            ("minTrackingConfidence", minTrackingConfidence),
        ])
    }
}

/// The poses found in one image or frame, in MediaPipe's shape: the i-th entry of each array describes pose i.
public struct PoseLandmarkerResult: Sendable, Hashable, Codable {
    /// Per pose, the 33 landmarks normalized to the image (`PoseLandmarkName` names them), each with its
    /// visibility and presence. In video and live-stream modes with `numPoses` 1, x, y, z and visibility are
    /// smoothed over time as MediaPipe smooths them.
    public var landmarks: [[NormalizedLandmark]]
    /// Per pose, the same 33 landmarks in metres, origin at the centre between the hips, with visibility and
    /// presence.
    public var worldLandmarks: [[Landmark]]
    /// Per pose, its segmentation mask, when `outputSegmentationMasks` is set and a pose was found; nil otherwise
    /// (as MediaPipe's Python API, an empty result carries no masks).
    public var segmentationMasks: [PoseSegmentationMask]?
    /// The timestamp of the frame (0 in image mode).
    public var timestampInMilliseconds: Int

    /// Creates a result.
    public init(
        landmarks: [[NormalizedLandmark]], worldLandmarks: [[Landmark]],
        segmentationMasks: [PoseSegmentationMask]? = nil, timestampInMilliseconds: Int = 0
    ) {
        self.landmarks = landmarks
        self.worldLandmarks = worldLandmarks
        self.segmentationMasks = segmentationMasks
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}
