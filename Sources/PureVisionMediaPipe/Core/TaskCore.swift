import Foundation
import PureVision

/// A PureVision task as a MediaPipe-compatible task creates it: from its options, set to a running mode and, in
/// `.liveStream` mode, to a result handler.
protocol NativeVisionTask: VisionTask where Options: NativeTaskOptions, Options.TaskResult == Result {
    /// PureVision's `init(options:)`.
    init(options: Options) throws(VisionTaskError)
}

/// The options of a `NativeVisionTask`: the two that `TaskCore` sets for every task.
protocol NativeTaskOptions: VisionTaskOptions {
    /// How the task is fed.
    var runningMode: RunningMode { get set }
    /// Receives the live-stream outcomes (`.liveStream` mode only).
    var resultHandler: (@Sendable (LiveStreamEvent<TaskResult>) -> Void)? { get set }
}

/// A MediaPipe result class made from its PureVision result and the frame's timestamp.
protocol NativeResultConvertible: Sendable {
    /// The PureVision result it converts.
    associatedtype Native: Sendable
    /// The same result as PureVision's, at `timestampInMilliseconds` (0 in image mode).
    init(_ native: Native, timestampInMilliseconds: Int)
}

/// What every MediaPipe-compatible task runs on (`MediaPipeVisionTask.core`), as `DetectorCore` is for the ML Kit
/// layer: its PureVision task, the relay of live-stream results to the MediaPipe delegate, and the image, video and
/// live-stream calls that `MediaPipeVisionTask`'s extensions name after the task's verb. Its members are the
/// layer's own.
///
/// `Wrapper` is the MediaPipe-compatible task (e.g. `FaceDetector`), `Native` PureVision's task it runs and
/// `Output` the MediaPipe result class. Each call keeps the `MPImage` alive while its pixels are read (they may be a
/// locked `CVPixelBuffer`'s), goes to the native task's running-mode machine, which checks the running mode and
/// the timestamps, and converts the native result with the frame's timestamp.
public final class TaskCore<Wrapper: AnyObject, Native: VisionTask, Output>: Sendable {
    /// The PureVision task.
    let native: Native
    private let relay: LiveStreamRelay<Wrapper>
    private let convert: @Sendable (Native.Result, _ timestampInMilliseconds: Int) -> Output

    /// Creates the native task from `options` in `runningMode`; in `.liveStream` mode with a result handler that
    /// converts each result and hands it to `delegate` through `deliver` (the delegate's own method), as
    /// `(delegate, wrapper, result, timestamp, error)`. `attach(_:)` names the wrapper once it exists.
    ///
    /// `Delegate` is the wrapper's delegate protocol type (`any FaceDetectorLiveStreamDelegate` …), class-bound: the
    /// delegate is held weakly, as MediaPipe holds it.
    /// - Throws: `VisionTaskError` when the delegate does not fit the running mode (MediaPipe's rule and messages),
    ///   or what the native task's initializer throws.
    init<Delegate>(
        options: Native.Options, runningMode: RunningMode, delegate: Delegate?,
        deliver: @escaping @Sendable (Delegate, Wrapper, Output?, Int, (any Error)?) -> Void
    ) throws
    where Native: NativeVisionTask, Output: NativeResultConvertible, Output.Native == Native.Result {
        try LiveStreamDelegateRule.check(runningMode: runningMode, hasDelegate: delegate != nil)
        let relay = LiveStreamRelay<Wrapper>(delegate: delegate.map { $0 as AnyObject })
        let convert: @Sendable (Native.Result, Int) -> Output = { Output($0, timestampInMilliseconds: $1) }
        var options = options
        options.runningMode = runningMode
        if runningMode == .liveStream {
            options.resultHandler = { event in
                relay.relay(event, to: Delegate.self) { wrapper, delegate, result, timestamp, error in
                    deliver(delegate, wrapper, result.map { convert($0, timestamp) }, timestamp, error)
                }
            }
        }
        native = try Native(options: options)
        self.relay = relay
        self.convert = convert
    }

    /// Names the wrapper passed to the delegate (call it at the end of the wrapper's initializer).
    func attach(_ wrapper: Wrapper) { relay.attach(wrapper) }

    /// An `.image` mode call on `image`, with the processing options of `roi` (nil for `CGRect.zero`, the whole
    /// image); the result at timestamp 0.
    func image(_ image: MPImage, regionOfInterest roi: CGRect = .zero) throws -> Output {
        try withExtendedLifetime(image) {
            convert(try native.runner.image(image.pixelImage, roi.processingOptions), 0)
        }
    }

    /// A `.video` mode call on the frame, as `image(_:regionOfInterest:)`; the result at the frame's timestamp.
    func videoFrame(_ image: MPImage, timestampInMilliseconds: Int, regionOfInterest roi: CGRect = .zero) throws
        -> Output
    {
        try withExtendedLifetime(image) {
            convert(
                try native.runner.video(image.pixelImage, roi.processingOptions, at: timestampInMilliseconds),
                timestampInMilliseconds)
        }
    }

    /// A `.liveStream` mode call: queues the frame (the native task copies borrowed pixels); its result goes to the
    /// delegate.
    func liveStreamFrame(_ image: MPImage, timestampInMilliseconds: Int, regionOfInterest roi: CGRect = .zero) throws {
        try withExtendedLifetime(image) {
            try native.runner.liveStream(image.pixelImage, roi.processingOptions, at: timestampInMilliseconds)
        }
    }

    /// The native task's `close()`.
    func close() { native.close() }
}
