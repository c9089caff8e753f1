import PureVisionImage
import PureVisionKernels

/// ML Kit's face detection API (`FaceDetector` of MLKitFaceDetection) on MediaPipe's models: BlazeFace finds the
/// faces, the 468-point face mesh (parity with MediaPipe's legacy `solutions.face_mesh`) runs on each, and
/// everything ML Kit reports — frame, head Euler angles, the 10 landmarks, the 15 contours, smiling and eyes-open
/// probabilities, tracking IDs — is derived from the mesh (`FaceMeshTopology`, `HeadPose`, `FaceClassification`,
/// `FaceTracker`).
///
/// The image's `orientation` tells the detector which way is up; positions are in the stored pixels of the image
/// (as ML Kit's iOS results, which its samples map to the preview with the capture buffer's size). Mirrored
/// orientations are accepted, as ML Kit accepts them (front cameras report `.leftMirrored`): the mirror only
/// concerns how the frame is displayed, so the stored pixels are analyzed turned upright without it (`.leftMirrored`
/// as `.right`, `.rightMirrored` as `.left`, `.upMirrored` as `.up`, `.downMirrored` as `.down`). Left and right
/// (landmarks, contours, eye probabilities) are then the subject's own; to draw on a mirrored preview, mirror the
/// positions as the preview mirrors the frame. MediaPipe-shaped tasks (`FaceDetector`, `HandLandmarker` …) keep
/// refusing mirrored orientations, as MediaPipe does. Differences from ML Kit:
/// contours are returned for every face, not only the most prominent one; the mesh is recomputed from a fresh
/// detection in every frame (no landmark-based tracking ROI).
///
/// A `FaceAnalyzer` is `Sendable`: calls from several threads are serialised.
public final class FaceAnalyzer: VisionTask {
    /// The options the analyzer was created with.
    public let options: FaceAnalyzerOptions
    /// The running-mode machine that serves the task's calls.
    public let runner: VisionTaskRunner<[Face]>
    private let pipeline: FaceMeshPipeline

    /// The thread pool each of the task's models runs on, in load order: one pool, shared (tests check that a task
    /// starts only the threads it was asked for).
    package var modelThreadPools: [ThreadPool] { pipeline.pools }

    /// Loads the models and prepares the pipeline.
    /// - Throws: `VisionTaskError.invalidOption` for options out of range, `.model` for a missing or unsuitable
    ///   model, `.resultHandler` for a result handler that does not fit the running mode.
    public init(options: FaceAnalyzerOptions) throws(VisionTaskError) {
        let pipeline = try FaceMeshPipeline(options: options)
        self.pipeline = pipeline
        self.options = options
        runner = try VisionTaskRunner(
            options: options, label: "FaceAnalyzer",
            process: { frame, _ throws(VisionTaskError) in try pipeline.faces(frame.image) })
    }

    /// The faces in one image (`.image` mode), in detection order (best first).
    public func results(in image: PixelImage) throws(VisionTaskError) -> [Face] {
        try runner.image(image, nil)
    }

    /// The faces in one video frame (`.video` mode); timestamps must strictly increase.
    public func results(inVideoFrame image: PixelImage, timestampInMilliseconds: Int) throws(VisionTaskError) -> [Face]
    {
        try runner.video(image, nil, at: timestampInMilliseconds)
    }

    /// Queues one camera frame (`.liveStream` mode) and returns at once; the outcome arrives on the result handler
    /// (and `liveStreamResults()`). A frame wrapping caller memory is copied first.
    public func processAsync(image: PixelImage, timestampInMilliseconds: Int) throws(VisionTaskError) {
        try runner.liveStream(image, nil, at: timestampInMilliseconds)
    }
}
