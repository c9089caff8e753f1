import PureVisionImage

/// The running-mode machine a vision task composes (`VisionTask.runner`): the calls of each running mode, checked
/// against the task's mode and, in video and live-stream modes, its timestamps; live-stream frames are queued on
/// the machine's own threads (see `TaskRunner` for the contract). Its members are PureVision's own: a task's
/// public methods reach them.
public final class VisionTaskRunner<Result: Sendable>: Sendable {
    /// Runs one frame; gets the frame's timestamp (0 in image mode).
    package typealias Process =
        @Sendable (VisionFrame, _ timestampInMilliseconds: Int) throws(VisionTaskError) -> Result

    private let runner: TaskRunner<VisionFrame, Result>

    /// A machine in `mode`, with a live-stream result handler (required in `.liveStream` mode, refused in the
    /// others).
    /// - Throws: `VisionTaskError.resultHandler` for a handler that does not fit the running mode.
    package init(
        mode: RunningMode, label: String, handler: (@Sendable (LiveStreamEvent<Result>) -> Void)? = nil,
        process: @escaping Process
    ) throws(VisionTaskError) {
        runner = try TaskRunner(mode: mode, label: label, handler: handler, process: process)
    }

    /// A machine in the running mode of `options`, with their result handler.
    /// - Throws: `VisionTaskError.resultHandler` for a handler that does not fit the running mode.
    package convenience init<Options: VisionTaskOptions>(
        options: Options, label: String, process: @escaping Process
    ) throws(VisionTaskError) where Options.TaskResult == Result {
        try self.init(mode: options.runningMode, label: label, handler: options.resultHandler, process: process)
    }

    /// A machine like ``init(options:label:process:)`` whose results carry the frame's timestamp outside image
    /// mode.
    package convenience init<Options: VisionTaskOptions>(
        options: Options, label: String,
        timestamping process: @escaping @Sendable (VisionFrame) throws(VisionTaskError) -> Result
    ) throws(VisionTaskError) where Options.TaskResult == Result, Result: TimestampedTaskResult {
        let stamps = options.runningMode != .image
        try self.init(options: options, label: label) { frame, timestamp throws(VisionTaskError) in
            var result = try process(frame)
            if stamps { result.timestampInMilliseconds = timestamp }
            return result
        }
    }

    /// Image mode: processes `image` now.
    package func image(_ image: PixelImage, _ processing: ImageProcessingOptions?) throws(VisionTaskError) -> Result {
        try runner.runImage(VisionFrame(image: image, processing: processing))
    }

    /// Video mode: processes `image` now; its timestamp must exceed the previous one.
    package func video(_ image: PixelImage, _ processing: ImageProcessingOptions?, at timestamp: Int)
        throws(VisionTaskError) -> Result
    {
        try runner.runVideo(VisionFrame(image: image, processing: processing), timestampInMilliseconds: timestamp)
    }

    /// Live-stream mode: queues `image` (copied if it wraps caller memory) and returns at once.
    package func liveStream(_ image: PixelImage, _ processing: ImageProcessingOptions?, at timestamp: Int)
        throws(VisionTaskError)
    {
        try runner.submit(.retained(image, processing: processing), timestampInMilliseconds: timestamp)
    }

    /// Image mode, off the calling thread.
    package func imageAsync(_ image: PixelImage, _ processing: ImageProcessingOptions?) async throws -> Result {
        try await runner.runImageAsync(.retained(image, processing: processing))
    }

    /// Video mode, off the calling thread.
    package func videoAsync(_ image: PixelImage, _ processing: ImageProcessingOptions?, at timestamp: Int)
        async throws -> Result
    {
        try await runner.runVideoAsync(.retained(image, processing: processing), timestampInMilliseconds: timestamp)
    }

    /// Every live-stream event from now on, in timestamp order; the stream finishes when the task closes.
    package func events() -> AsyncStream<LiveStreamEvent<Result>> { runner.events() }

    /// Stops accepting frames and delivers the queued ones' events (`TaskRunner.close()`).
    package func close() { runner.close() }
}
