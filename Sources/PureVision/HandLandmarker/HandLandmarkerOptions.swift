/// Options of a `HandLandmarker`, with MediaPipe Tasks' defaults.
public struct HandLandmarkerOptions: Sendable {
    /// The `hand_landmarker.task` bundle (a stored ZIP holding `hand_detector.tflite` and
    /// `hand_landmarks_detector.tflite`). Ignored when both `handDetectorModelPath` and `handLandmarksModelPath`
    /// are set.
    public var baseOptions: BaseOptions
    /// The palm detection model, when given as a separate `.tflite` file.
    public var handDetectorModelPath: String?
    /// The hand landmark model, when given as a separate `.tflite` file.
    public var handLandmarksModelPath: String?
    /// How the landmarker is fed. Default `.image`.
    public var runningMode: RunningMode
    /// The most hands reported (≥ 1). Default 1.
    public var numHands: Int
    /// Palm detections scoring below this are ignored. In [0, 1]; default 0.5.
    public var minHandDetectionConfidence: Float
    /// A hand is reported only when the landmark model's presence score is above this. In [0, 1]; default 0.5.
    public var minHandPresenceConfidence: Float
    /// Video / live stream: a newly detected palm is added to the tracked hands only when its box overlaps each of
    /// them by at most this IoU (MediaPipe uses this option only as that threshold). In (0, 1]; default 0.5.
    public var minTrackingConfidence: Float
    /// Receives every live-stream frame's outcome (required in `.liveStream` mode only).
    public var resultHandler: (@Sendable (LiveStreamEvent<HandLandmarkerResult>) -> Void)?
    /// Beyond MediaPipe: smooths landmarks over time in video and live-stream modes with a One Euro filter. Off
    /// (nil) by default, so results stay identical to MediaPipe's.
    public var landmarkSmoothing: OneEuroFilterParameters?
    /// Beyond MediaPipe: set when frames come from a mirrored (selfie) camera preview, so that handedness names
    /// the person's own hand. MediaPipe labels the hand as it appears in the (mirrored) image.
    public var isInputMirrored: Bool

    /// Creates options.
    public init(
        baseOptions: BaseOptions, runningMode: RunningMode = .image, numHands: Int = 1,
        minHandDetectionConfidence: Float = 0.5, minHandPresenceConfidence: Float = 0.5,
        minTrackingConfidence: Float = 0.5,
        resultHandler: (@Sendable (LiveStreamEvent<HandLandmarkerResult>) -> Void)? = nil,
        landmarkSmoothing: OneEuroFilterParameters? = nil, isInputMirrored: Bool = false
    ) {
        self.baseOptions = baseOptions
        self.runningMode = runningMode
        self.numHands = numHands
        self.minHandDetectionConfidence = minHandDetectionConfidence
        self.minHandPresenceConfidence = minHandPresenceConfidence
        self.minTrackingConfidence = minTrackingConfidence
        self.resultHandler = resultHandler
        self.landmarkSmoothing = landmarkSmoothing
        self.isInputMirrored = isInputMirrored
    }

    func validate() throws(VisionTaskError) {
        try OptionChecks.atLeastOne(numHands, name: "numHands")
        try OptionChecks.fractions([
            ("minHandDetectionConfidence", minHandDetectionConfidence),
            ("minHandPresenceConfidence", minHandPresenceConfidence),
        ])
        guard minTrackingConfidence > 0, minTrackingConfidence <= 1 else {
            throw .invalidOption(
                name: "minTrackingConfidence", reason: "must be in (0, 1], got \(minTrackingConfidence)")
        }
    }
}

/// The hands found in one image or frame, in MediaPipe's shape: the i-th entry of each array describes hand i.
public struct HandLandmarkerResult: Sendable, Hashable, Codable {
    /// Per hand, one category: index 0 "Right" or 1 "Left" with its score (MediaPipe Tasks' labels; they name
    /// the hand as it appears in the image unless `isInputMirrored` is set).
    public var handedness: [[ResultCategory]]
    /// Per hand, 21 landmarks normalized to the image (wrist 0; thumb 1–4; index 5–8; middle 9–12; ring 13–16;
    /// pinky 17–20).
    public var landmarks: [[NormalizedLandmark]]
    /// Per hand, the 21 landmarks in metres, around the hand's approximate geometric centre.
    public var worldLandmarks: [[Landmark]]

    /// Creates a result from per-hand arrays of equal length.
    public init(handedness: [[ResultCategory]], landmarks: [[NormalizedLandmark]], worldLandmarks: [[Landmark]]) {
        self.handedness = handedness
        self.landmarks = landmarks
        self.worldLandmarks = worldLandmarks
    }

    /// The hands as values: handedness, landmarks and world landmarks together.
    public var hands: [Hand] {
        (0..<landmarks.count).map { i in
            Hand(handedness: handedness[i].first, landmarks: landmarks[i], worldLandmarks: worldLandmarks[i])
        }
    }

    /// One detected hand.
    public struct Hand: Sendable, Hashable {
        /// Left or right hand, with its score.
        public var handedness: ResultCategory?
        /// The 21 landmarks, image-normalized.
        public var landmarks: [NormalizedLandmark]
        /// The 21 landmarks in metres, from the hand's centre.
        public var worldLandmarks: [Landmark]
    }
}
