/// Options of a `GestureRecognizer`, with MediaPipe Tasks' defaults.
public struct GestureRecognizerOptions: Sendable {
    /// The `gesture_recognizer.task` bundle: a stored ZIP holding `hand_landmarker.task` and
    /// `hand_gesture_recognizer.task` (itself holding `gesture_embedder.tflite`, `canned_gesture_classifier.tflite`
    /// and, from MediaPipe Model Maker, `custom_gesture_classifier.tflite`).
    public var baseOptions: BaseOptions
    /// How the recognizer is fed. Default `.image`.
    public var runningMode: RunningMode
    /// The most hands recognized (≥ 1). Default 1.
    public var numHands: Int
    /// Palm detections scoring below this are ignored. In [0, 1]; default 0.5.
    public var minHandDetectionConfidence: Float
    /// A hand is reported only when the landmark model's presence score is above this. In [0, 1]; default 0.5.
    public var minHandPresenceConfidence: Float
    /// Video / live stream: a newly detected palm is added to the tracked hands only when its box overlaps each of
    /// them by at most this IoU (MediaPipe uses this option only as that threshold). In (0, 1]; default 0.5.
    public var minTrackingConfidence: Float
    /// The canned classifier's options (categories None, Closed_Fist, Open_Palm, Pointing_Up, Thumb_Down, Thumb_Up,
    /// Victory, ILoveYou in the official bundle).
    public var cannedGesturesClassifierOptions: GestureClassifierOptions
    /// The custom classifier's options; used only when the bundle has a custom classifier.
    public var customGesturesClassifierOptions: GestureClassifierOptions
    /// Receives every live-stream frame's outcome (required in `.liveStream` mode only).
    public var resultHandler: (@Sendable (LiveStreamEvent<GestureRecognizerResult>) -> Void)?

    /// Creates options.
    public init(
        baseOptions: BaseOptions, runningMode: RunningMode = .image, numHands: Int = 1,
        minHandDetectionConfidence: Float = 0.5, minHandPresenceConfidence: Float = 0.5,
        minTrackingConfidence: Float = 0.5,
        cannedGesturesClassifierOptions: GestureClassifierOptions = GestureClassifierOptions(),
        customGesturesClassifierOptions: GestureClassifierOptions = GestureClassifierOptions(),
        resultHandler: (@Sendable (LiveStreamEvent<GestureRecognizerResult>) -> Void)? = nil
    ) {
        self.baseOptions = baseOptions
        self.runningMode = runningMode
        self.numHands = numHands
        self.minHandDetectionConfidence = minHandDetectionConfidence
        self.minHandPresenceConfidence = minHandPresenceConfidence
        self.minTrackingConfidence = minTrackingConfidence
        self.cannedGesturesClassifierOptions = cannedGesturesClassifierOptions
        self.customGesturesClassifierOptions = customGesturesClassifierOptions
        self.resultHandler = resultHandler
    }

    /// The hand landmarker options these options imply, reading the hand models from `handBundle`.
    func handLandmarkerOptions(handBundle: [UInt8]) -> HandLandmarkerOptions {
        HandLandmarkerOptions(
            baseOptions: BaseOptions(modelAssetBuffer: handBundle, threadCount: baseOptions.threadCount),
            runningMode: runningMode, numHands: numHands, minHandDetectionConfidence: minHandDetectionConfidence,
            minHandPresenceConfidence: minHandPresenceConfidence, minTrackingConfidence: minTrackingConfidence)
    }

    func validate() throws(VisionTaskError) {
        // The hand options are checked by the hand landmarker's own rules.
        try HandLandmarkerOptions(
            baseOptions: baseOptions, numHands: numHands, minHandDetectionConfidence: minHandDetectionConfidence,
            minHandPresenceConfidence: minHandPresenceConfidence, minTrackingConfidence: minTrackingConfidence
        ).validate()
        try cannedGesturesClassifierOptions.validate(name: "cannedGesturesClassifierOptions")
        try customGesturesClassifierOptions.validate(name: "customGesturesClassifierOptions")
    }
}
