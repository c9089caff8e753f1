import PureVisionImage
import PureVisionKernels

/// MediaPipe's FaceLandmarker, natively: face detection → rotated face regions → 478 face landmarks (the mesh and
/// both irises) per face, optionally the 52 blendshape scores and the facial transformation matrix, with MediaPipe's
/// tracking in video and live-stream modes (the next frame's region comes from this frame's landmarks, detection is
/// skipped while `numFaces` faces are tracked, and with one face the landmarks are 1€-smoothed as MediaPipe does).
///
/// Matches MediaPipe Tasks 0.10.14 (`face_landmarker.task`). Rotation through `ImageProcessingOptions` is
/// supported; a region of interest is not. `Sendable`: calls are serialised.
public final class FaceLandmarker: DetectionTask {
    /// The options the landmarker was created with.
    public let options: FaceLandmarkerOptions
    /// The running-mode machine that serves the task's calls.
    public let runner: VisionTaskRunner<FaceLandmarkerResult>
    private let pipeline: FaceLandmarkerPipeline

    /// The thread pool each of the task's models runs on, in load order: one pool, shared (tests check that a task
    /// starts only the threads it was asked for).
    package var modelThreadPools: [ThreadPool] { pipeline.pools }

    /// Creates a landmarker.
    /// - Throws: `VisionTaskError` for options out of range; a missing or malformed bundle, naming a missing entry
    ///   (`face_detector.tflite`, `face_landmarks_detector.tflite`, and `face_blendshapes.tflite` /
    ///   `geometry_pipeline_metadata_landmarks.binarypb` when blendshapes / matrices are asked for); models of the
    ///   wrong shape; a malformed geometry metadata message (the `ProtobufError` in the message); a result handler
    ///   that does not fit the running mode.
    public init(options: FaceLandmarkerOptions) throws(VisionTaskError) {
        try options.validate()
        self.options = options
        let pipeline = try FaceLandmarkerPipeline(options: options)
        self.pipeline = pipeline
        runner = try VisionTaskRunner(options: options, label: "FaceLandmarker", tracking: pipeline)
    }

    /// Creates an image-mode landmarker from a `face_landmarker.task` bundle with default options.
    public convenience init(modelPath: String) throws(VisionTaskError) {
        try self.init(options: FaceLandmarkerOptions(baseOptions: BaseOptions(modelAssetPath: modelPath)))
    }

    /// The 52 blendshape scores MediaPipe's blendshape model gives for `landmarks` (478, normalized to an image of
    /// `imageWidth` × `imageHeight` pixels): the stage the landmarker runs after the landmark model, for landmarks
    /// from elsewhere (another frame, an edited mesh). Needs `outputFaceBlendshapes`.
    /// - Throws: `VisionTaskError.invalidOption` without `outputFaceBlendshapes` or with fewer than 478 landmarks.
    public func blendshapes(
        landmarks: [NormalizedLandmark], imageWidth: Int, imageHeight: Int
    ) throws(VisionTaskError) -> [ResultCategory] {
        guard options.outputFaceBlendshapes else {
            throw .invalidOption(name: "outputFaceBlendshapes", reason: "blendshapes were not asked for")
        }
        return try pipeline.blendshapeScores(landmarks, imageWidth: imageWidth, imageHeight: imageHeight)
    }

    /// The facial transformation matrix MediaPipe's geometry pipeline gives for `landmarks` (the first 468 are used),
    /// or nil when they are too compact to fit. Needs `outputFacialTransformationMatrixes`.
    /// - Throws: `VisionTaskError.invalidOption` without `outputFacialTransformationMatrixes`; `.model` when the fit
    ///   fails.
    public func facialTransformationMatrix(
        landmarks: [NormalizedLandmark], imageWidth: Int, imageHeight: Int
    ) throws(VisionTaskError) -> TransformMatrix? {
        guard let geometry = pipeline.geometry else {
            throw .invalidOption(
                name: "outputFacialTransformationMatrixes", reason: "transformation matrixes were not asked for")
        }
        return try geometry.poseMatrix(landmarks: landmarks, imageWidth: imageWidth, imageHeight: imageHeight)
    }

    /// How many times face detection has run: in video and live-stream modes it runs only while fewer than
    /// `numFaces` faces are tracked.
    public var faceDetectionCount: Int { pipeline.detectorRuns.value }
}
