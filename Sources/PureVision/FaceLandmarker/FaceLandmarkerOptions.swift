/// Options of a `FaceLandmarker`, with MediaPipe Tasks' defaults.
public struct FaceLandmarkerOptions: Sendable {
    /// The `face_landmarker.task` bundle: a stored ZIP holding `face_detector.tflite`,
    /// `face_landmarks_detector.tflite` and, when blendshapes or matrices are asked for, `face_blendshapes.tflite`
    /// and `geometry_pipeline_metadata_landmarks.binarypb`.
    public var baseOptions: BaseOptions
    /// How the landmarker is fed. Default `.image`.
    public var runningMode: RunningMode
    /// The most faces reported (≥ 1). Default 1.
    public var numFaces: Int
    /// Face detections scoring below this are ignored. In [0, 1]; default 0.5.
    public var minFaceDetectionConfidence: Float
    /// A face is reported only when the landmark model's presence score (a sigmoid of its face flag) is above
    /// this. In [0, 1]; default 0.5.
    public var minFacePresenceConfidence: Float
    /// Video / live stream: a new detection replaces a tracked face when their boxes overlap by more than this IoU
    /// (MediaPipe uses the option only as that threshold). In [0, 1]; default 0.5.
    public var minTrackingConfidence: Float
    /// Report the 52 blendshape scores per face. Default false.
    public var outputFaceBlendshapes: Bool
    /// Report the 4×4 facial transformation matrix per face. Default false.
    public var outputFacialTransformationMatrixes: Bool
    /// Receives every live-stream frame's outcome (required in `.liveStream` mode only).
    public var resultHandler: (@Sendable (LiveStreamEvent<FaceLandmarkerResult>) -> Void)?

    /// Creates options.
    public init(
        baseOptions: BaseOptions, runningMode: RunningMode = .image, numFaces: Int = 1,
        minFaceDetectionConfidence: Float = 0.5, minFacePresenceConfidence: Float = 0.5,
        minTrackingConfidence: Float = 0.5, outputFaceBlendshapes: Bool = false,
        outputFacialTransformationMatrixes: Bool = false,
        resultHandler: (@Sendable (LiveStreamEvent<FaceLandmarkerResult>) -> Void)? = nil
    ) {
        self.baseOptions = baseOptions
        self.runningMode = runningMode
        self.numFaces = numFaces
        self.minFaceDetectionConfidence = minFaceDetectionConfidence
        self.minFacePresenceConfidence = minFacePresenceConfidence
        self.minTrackingConfidence = minTrackingConfidence
        self.outputFaceBlendshapes = outputFaceBlendshapes
        self.outputFacialTransformationMatrixes = outputFacialTransformationMatrixes
        self.resultHandler = resultHandler
    }

    func validate() throws(VisionTaskError) {
        try OptionChecks.atLeastOne(numFaces, name: "numFaces")
        try OptionChecks.fractions([
            ("minFaceDetectionConfidence", minFaceDetectionConfidence),
            ("minFacePresenceConfidence", minFacePresenceConfidence),
            ("minTrackingConfidence", minTrackingConfidence),
        ])
    }
}

/// A 4×4 matrix, row-major, as MediaPipe's `Matrix` / iOS `TransformMatrix`.
public struct TransformMatrix: Sendable, Hashable, Codable {
    /// Number of rows (4).
    public var rows: Int
    /// Number of columns (4).
    public var columns: Int
    /// The entries row by row: `data[row * columns + column]`.
    public var data: [Float]

    /// Creates a matrix from its entries, row-major.
    public init(rows: Int, columns: Int, data: [Float]) {
        self.rows = rows
        self.columns = columns
        self.data = data
    }

    /// The entry at (`row`, `column`).
    public subscript(row: Int, column: Int) -> Float { data[row * columns + column] }
}

/// The faces found in one image or frame, in MediaPipe's shape.
public struct FaceLandmarkerResult: Sendable, Hashable, Codable {
    /// Per face, 478 landmarks normalized to the (unrotated) image: x / width, y / height, z a relative depth on
    /// the scale of x (smaller is nearer). 0–467 are the face mesh, 468–472 the subject's right iris (centre then
    /// ring), 473–477 the left iris. Faces are in detection order (image mode) or tracking order.
    public var faceLandmarks: [[NormalizedLandmark]]
    /// Per face, the 52 blendshape scores in index order (`FaceBlendshapes.names`), when asked for; else empty.
    public var faceBlendshapes: [[ResultCategory]]
    /// Per face, the pose of the canonical face model in the camera frame: rotation and scale in the top-left 3×3,
    /// translation in centimetres in the last column (negative z in front of the camera), when asked for; else
    /// empty. MediaPipe skips a face whose landmarks are too compact (spread ≤ 1e-3), so this list can be shorter
    /// than `faceLandmarks`.
    public var facialTransformationMatrixes: [TransformMatrix]
    /// The frame's timestamp (0 in image mode).
    public var timestampInMilliseconds: Int

    /// Creates a result.
    public init(
        faceLandmarks: [[NormalizedLandmark]], faceBlendshapes: [[ResultCategory]] = [],
        facialTransformationMatrixes: [TransformMatrix] = [], timestampInMilliseconds: Int = 0
    ) {
        self.faceLandmarks = faceLandmarks
        self.faceBlendshapes = faceBlendshapes
        self.facialTransformationMatrixes = facialTransformationMatrixes
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}
