/// Which face detector a `FaceAnalyzer` runs (ML Kit's `FaceDetectorPerformanceMode`).
public enum FacePerformanceMode: String, Sendable, Hashable, Codable {
    /// The short-range BlazeFace detector (128×128 input): faces within about 2 m, fastest. ML Kit's default.
    case fast
    /// The full-range sparse BlazeFace detector (192×192 input): also small, distant faces.
    case accurate
}

/// Whether a `FaceAnalyzer` reports the 10 ML Kit landmarks (`FaceDetectorLandmarkMode`).
public enum FaceLandmarkMode: String, Sendable, Hashable, Codable {
    /// No landmarks.
    case none
    /// All 10 landmarks.
    case all
}

/// Whether a `FaceAnalyzer` reports the 15 ML Kit contours (`FaceDetectorContourMode`).
public enum FaceContourMode: String, Sendable, Hashable, Codable {
    /// No contours.
    case none
    /// All 15 contours.
    case all
}

/// Whether a `FaceAnalyzer` reports the smiling and eyes-open probabilities (`FaceDetectorClassificationMode`).
public enum FaceClassificationMode: String, Sendable, Hashable, Codable {
    /// No probabilities.
    case none
    /// The smiling and both eyes-open probabilities.
    case all
}

/// Options of a `FaceAnalyzer`: ML Kit's `FaceDetectorOptions` with its defaults, plus where the models are and the
/// running mode of the other PureVision tasks.
public struct FaceAnalyzerOptions: Sendable {
    /// Directory holding `face_detection_short_range.tflite`, `face_detection_full_range_sparse.tflite` (only
    /// needed for `.accurate`) and `face_landmark.tflite` — the files of the repository's `Models/`.
    public var modelDirectory: String
    /// Threads each inference may use (≥ 1), the calling thread included; the detector and the mesh model share one
    /// pool of this many threads. Default 1.
    public var threadCount: Int
    /// Detector choice. Default `.fast`.
    public var performanceMode: FacePerformanceMode
    /// Report `Face.landmarks`. Default `.none`.
    public var landmarkMode: FaceLandmarkMode
    /// Report `Face.contours`. Default `.none`.
    public var contourMode: FaceContourMode
    /// Report the smiling and eyes-open probabilities. Default `.none`.
    public var classificationMode: FaceClassificationMode
    /// Smallest face reported, as the face's width divided by the image width, in [0, 1]. Default 0.1.
    public var minFaceSize: Float
    /// Give each face a `trackingID` kept across calls while it moves (association by overlap). Default false.
    public var isTrackingEnabled: Bool
    /// How the analyzer is fed. Default `.image`.
    public var runningMode: RunningMode
    /// Receives every live-stream frame's outcome, one at a time on the task's own delivery thread, in timestamp
    /// order. Required in `.liveStream` mode and not allowed in the others.
    public var resultHandler: (@Sendable (LiveStreamEvent<[Face]>) -> Void)?

    /// The short-range detector's file name in `modelDirectory`.
    public static let shortRangeDetectorFile = "face_detection_short_range.tflite"
    /// The full-range detector's file name in `modelDirectory`.
    public static let fullRangeDetectorFile = "face_detection_full_range_sparse.tflite"
    /// The face mesh model's file name in `modelDirectory`.
    public static let landmarkModelFile = "face_landmark.tflite"

    /// Creates options with ML Kit's defaults.
    public init(
        modelDirectory: String, threadCount: Int = 1, performanceMode: FacePerformanceMode = .fast,
        landmarkMode: FaceLandmarkMode = .none, contourMode: FaceContourMode = .none,
        classificationMode: FaceClassificationMode = .none, minFaceSize: Float = 0.1,
        isTrackingEnabled: Bool = false, runningMode: RunningMode = .image,
        resultHandler: (@Sendable (LiveStreamEvent<[Face]>) -> Void)? = nil
    ) {
        self.modelDirectory = modelDirectory
        self.threadCount = threadCount
        self.performanceMode = performanceMode
        self.landmarkMode = landmarkMode
        self.contourMode = contourMode
        self.classificationMode = classificationMode
        self.minFaceSize = minFaceSize
        self.isTrackingEnabled = isTrackingEnabled
        self.runningMode = runningMode
        self.resultHandler = resultHandler
    }

    /// Checks the values a caller can get wrong.
    /// - Throws: `VisionTaskError.invalidOption` naming the option.
    public func validate() throws(VisionTaskError) {
        try OptionChecks.fractions([("minFaceSize", minFaceSize)])
        try OptionChecks.atLeastOne(threadCount, name: "threadCount")
        guard !modelDirectory.isEmpty else {
            throw .invalidOption(name: "modelDirectory", reason: "must name the directory holding the face models")
        }
    }

    /// ML Kit reports no head angles in its contour-only fast configuration.
    var reportsHeadAngles: Bool {
        !(performanceMode == .fast && contourMode == .all && landmarkMode == .none && classificationMode == .none)
    }
}
