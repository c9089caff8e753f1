/// What every PureVision vision task is: made from its options, fed in one running mode (`.image`, `.video` or
/// `.liveStream`), closed at the end.
///
/// A task declares its pipeline, its options and result types, and the running-mode machine that serves its calls
/// (`VisionTaskRunner`); its per-mode calls come from the protocol that names them: `DetectionTask` (`detect`),
/// `ClassificationTask` (`classify`), `EmbeddingTask` (`embed`), `SegmentationTask` (`segment`) or
/// `GestureRecognitionTask` (`recognize`). Every task is `Sendable`: calls from several threads are serialised.
public protocol VisionTask: AnyObject, Sendable {
    /// The options the task is created from.
    associatedtype Options: Sendable
    /// What the task returns for one image or frame.
    associatedtype Result: Sendable
    /// The options the task was created with.
    var options: Options { get }
    /// The running-mode machine that serves the task's calls: it checks the running mode and the timestamps, runs
    /// image and video frames on the caller's thread and queues live-stream frames on its own.
    var runner: VisionTaskRunner<Result> { get }
}

extension VisionTask {
    /// Every live-stream outcome from now on, in timestamp order; the stream ends when the task is closed.
    public func liveStreamResults() -> AsyncStream<LiveStreamEvent<Result>> { runner.events() }

    /// Finishes queued live-stream frames, delivers their results and refuses further calls.
    public func close() { runner.close() }
}
