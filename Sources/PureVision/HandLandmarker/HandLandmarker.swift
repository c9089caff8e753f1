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
public final class HandLandmarker: Sendable {
    /// The options the landmarker was created with.
    public let options: HandLandmarkerOptions
    private let runner: TaskRunner<VisionFrame, HandLandmarkerResult>
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
        let tracking = options.runningMode != .image
        runner = try TaskRunner(
            options: options, label: "HandLandmarker",
            process: { frame, timestamp throws(VisionTaskError) in
                try pipeline.process(frame, timestampInMilliseconds: timestamp, tracking: tracking)
            })
    }

    /// Creates an image-mode landmarker from a `hand_landmarker.task` bundle with default options.
    public convenience init(modelPath: String) throws(VisionTaskError) {
        try self.init(options: HandLandmarkerOptions(baseOptions: BaseOptions(modelAssetPath: modelPath)))
    }

    /// Finds hands in one image (`.image` mode); palm detection runs on every call.
    public func detect(
        image: PixelImage, imageProcessingOptions: ImageProcessingOptions? = nil
    ) throws(VisionTaskError) -> HandLandmarkerResult {
        try runner.image(image, imageProcessingOptions)
    }

    /// Tracks hands in one video frame (`.video` mode); timestamps must strictly increase.
    public func detect(
        videoFrame image: PixelImage, timestampInMilliseconds: Int,
        imageProcessingOptions: ImageProcessingOptions? = nil
    ) throws(VisionTaskError) -> HandLandmarkerResult {
        try runner.video(image, imageProcessingOptions, at: timestampInMilliseconds)
    }

    /// Queues one camera frame (`.liveStream` mode) and returns at once; the outcome arrives on the result handler
    /// and `liveStreamResults()`. A frame wrapping caller memory is copied first.
    public func detectAsync(
        image: PixelImage, timestampInMilliseconds: Int, imageProcessingOptions: ImageProcessingOptions? = nil
    ) throws(VisionTaskError) {
        try runner.liveStream(image, imageProcessingOptions, at: timestampInMilliseconds)
    }

    /// Finds hands in one image off the calling thread (`.image` mode).
    public func detect(image: PixelImage, imageProcessingOptions: ImageProcessingOptions? = nil) async throws
        -> HandLandmarkerResult
    {
        try await runner.imageAsync(image, imageProcessingOptions)
    }

    /// Tracks hands in one video frame off the calling thread (`.video` mode).
    public func detect(
        videoFrame image: PixelImage, timestampInMilliseconds: Int,
        imageProcessingOptions: ImageProcessingOptions? = nil
    ) async throws -> HandLandmarkerResult {
        try await runner.videoAsync(image, imageProcessingOptions, at: timestampInMilliseconds)
    }

    /// Every live-stream outcome from now on, in timestamp order; the stream ends when the landmarker is closed.
    public func liveStreamResults() -> AsyncStream<LiveStreamEvent<HandLandmarkerResult>> { runner.events() }

    /// How many times palm detection has run: in video and live-stream modes it runs only while fewer than
    /// `numHands` hands are tracked.
    public var palmDetectionCount: Int { pipeline.detectorRuns.value }

    /// Finishes queued live-stream frames, delivers their results and refuses further calls.
    public func close() { runner.close() }
}
