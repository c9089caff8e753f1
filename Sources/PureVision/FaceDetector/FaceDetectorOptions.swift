/// Options of a `FaceDetector`, with MediaPipe Tasks' defaults.
public struct FaceDetectorOptions: Sendable {
    /// The model (a BlazeFace `.tflite`: the short-range 128×128 or the full-range sparse 192×192 one).
    public var baseOptions: BaseOptions
    /// How the detector is fed. Default `.image`.
    public var runningMode: RunningMode
    /// Detections scoring below this are dropped. In [0, 1]; default 0.5.
    public var minDetectionConfidence: Float
    /// Detections overlapping a better one by more than this IoU are merged into it. In [0, 1]; default 0.3.
    public var minSuppressionThreshold: Float
    /// Receives every live-stream frame's outcome, one at a time on the task's own delivery thread, in timestamp
    /// order. Required in `.liveStream` mode and not allowed in the others.
    public var resultHandler: (@Sendable (LiveStreamEvent<FaceDetectorResult>) -> Void)?

    /// Creates options.
    public init(
        baseOptions: BaseOptions, runningMode: RunningMode = .image, minDetectionConfidence: Float = 0.5,
        minSuppressionThreshold: Float = 0.3,
        resultHandler: (@Sendable (LiveStreamEvent<FaceDetectorResult>) -> Void)? = nil
    ) {
        self.baseOptions = baseOptions
        self.runningMode = runningMode
        self.minDetectionConfidence = minDetectionConfidence
        self.minSuppressionThreshold = minSuppressionThreshold
        self.resultHandler = resultHandler
    }
}

/// The faces found in one image or frame.
public struct FaceDetectorResult: Sendable, Hashable, Codable {
    /// One detection per face, best first; each has one category (index 0, the face score), a pixel bounding box
    /// and six normalized keypoints: right eye, left eye, nose tip, mouth centre, right ear tragion, left ear
    /// tragion (the subject's right and left).
    public var detections: [Detection]

    /// Creates a result from its detections.
    public init(detections: [Detection]) { self.detections = detections }
}
