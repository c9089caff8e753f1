import Foundation
import PureVisionImage
import PureVisionKernels

/// MediaPipe's PoseLandmarker, natively: pose detection → rotated body regions → 33 body landmarks (with
/// visibility and presence), 33 world landmarks in metres and optionally a segmentation mask per pose, with
/// MediaPipe's tracking and smoothing in video and live-stream modes (the next frame's region comes from this
/// frame's auxiliary landmarks, detection is skipped while `numPoses` poses are tracked, and with `numPoses` 1 the
/// landmarks are smoothed by MediaPipe's One Euro and visibility filters).
///
/// Matches MediaPipe Tasks 0.10.14, including its handling of `ImageProcessingOptions.rotationDegrees`: the
/// rotation is applied to the detector's input only and not undone on its detections, so rotated input gives
/// MediaPipe's misplaced regions (often no pose). A region of interest is refused. `Sendable`: calls are
/// serialised.
public final class PoseLandmarker: DetectionTask {
    /// The options the landmarker was created with.
    public let options: PoseLandmarkerOptions
    /// The running-mode machine that serves the task's calls.
    public let runner: VisionTaskRunner<PoseLandmarkerResult>
    private let pipeline: PoseLandmarkPipeline

    /// The thread pool each of the task's models runs on, in load order: one pool, shared (tests check that a task
    /// starts only the threads it was asked for).
    package var modelThreadPools: [ThreadPool] { pipeline.pools }

    /// Creates a landmarker.
    /// - Throws: `VisionTaskError` for options out of range, a missing or malformed bundle (naming the missing
    ///   entry), models of the wrong shape, or a result handler that does not fit the running mode.
    public init(options: PoseLandmarkerOptions) throws(VisionTaskError) {
        try options.validate()
        self.options = options
        let pipeline = try PoseLandmarkPipeline(options: options)
        self.pipeline = pipeline
        runner = try VisionTaskRunner(options: options, label: "PoseLandmarker", tracking: pipeline)
    }

    /// Creates an image-mode landmarker from a `pose_landmarker_*.task` bundle with default options.
    public convenience init(modelPath: String) throws(VisionTaskError) {
        try self.init(options: PoseLandmarkerOptions(baseOptions: BaseOptions(modelAssetPath: modelPath)))
    }

    /// How many times pose detection has run: in video and live-stream modes it runs only while fewer than
    /// `numPoses` poses are tracked.
    public var poseDetectionCount: Int { pipeline.detectorRuns.value }

    /// Replaces the regions the next video frame is tracked in (MediaPipe's POSE_RECTS_NEXT_FRAME loop-back) with
    /// `regions`, as if the last frame had produced them. For tests that feed MediaPipe's own regions to check one
    /// frame at a time; call it only between frames.
    package func replaceTrackedRegions(_ regions: [NormalizedRect]) { pipeline.replaceTrackedRegions(regions) }
}
