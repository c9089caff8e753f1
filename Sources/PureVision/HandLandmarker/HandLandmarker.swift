import Foundation
import PureVisionEngine
import PureVisionImage
import PureVisionKernels
import PureVisionTFLite

/// MediaPipe's HandLandmarker, natively: palm detection → rotated hand regions → 21 hand landmarks, world
/// landmarks and handedness per hand, with MediaPipe's tracking in video and live-stream modes (the next frame's
/// region comes from this frame's landmarks, and palm detection is skipped while `numHands` hands are tracked).
///
/// Matches MediaPipe Tasks 0.10.14 (including its palm rotation target of 90 radians). Rotation through
/// `ImageProcessingOptions` is supported; a region of interest is not. `Sendable`: calls are serialised.
public final class HandLandmarker: DetectionTask {
    /// The options the landmarker was created with.
    public let options: HandLandmarkerOptions
    /// The running-mode machine that serves the task's calls.
    public let runner: VisionTaskRunner<HandLandmarkerResult>
    private let pipeline: HandLandmarkPipeline

    /// The thread pool each of the task's models runs on, in load order: one pool, shared (tests check that a task
    /// starts only the threads it was asked for).
    package var modelThreadPools: [ThreadPool] { pipeline.pools }

    /// Creates a landmarker.
    /// - Throws: `VisionTaskError` for options out of range, a missing or malformed bundle (naming the missing
    ///   entry), models of the wrong shape, or a result handler that does not fit the running mode.
    public init(options: HandLandmarkerOptions) throws(VisionTaskError) {
        try options.validate()
        self.options = options
        let pipeline = try HandLandmarkPipeline(options: options)
        self.pipeline = pipeline
        runner = try VisionTaskRunner(options: options, label: "HandLandmarker", tracking: pipeline)
    }

    /// Creates an image-mode landmarker from a `hand_landmarker.task` bundle with default options.
    public convenience init(modelPath: String) throws(VisionTaskError) {
        try self.init(options: HandLandmarkerOptions(baseOptions: BaseOptions(modelAssetPath: modelPath)))
    }

    /// How many times palm detection has run: in video and live-stream modes it runs only while fewer than
    /// `numHands` hands are tracked.
    public var palmDetectionCount: Int { pipeline.detectorRuns.value }
}
