import Foundation
import PureVision

/// A PureVision task as a MediaPipe-compatible task drives it: made from its options, closed at the end. Its
/// per-mode calls (`detect`, `classify`, `recognize` …) differ in name, so the wrapper passes them to `TaskCore`.
protocol NativeVisionTask: Sendable {
    /// The task's options.
    associatedtype Options: NativeTaskOptions
    /// PureVision's `init(options:)`.
    init(options: Options) throws(VisionTaskError)
    /// Finishes the queued live-stream frames, delivers their results and refuses further calls.
    func close()
}

/// The options of a `NativeVisionTask`: the two that `TaskCore` sets for every task.
protocol NativeTaskOptions: Sendable {
    /// What the task returns for one image or frame.
    associatedtype Result: Sendable
    /// How the task is fed.
    var runningMode: RunningMode { get set }
    /// Receives the live-stream outcomes (`.liveStream` mode only).
    var resultHandler: (@Sendable (LiveStreamEvent<Result>) -> Void)? { get set }
}

/// A MediaPipe result class made from its PureVision result and the frame's timestamp.
protocol NativeResultConvertible {
    /// The PureVision result it converts.
    associatedtype Native: Sendable
    /// The same result as PureVision's, at `timestampInMilliseconds` (0 in image mode).
    init(_ native: Native, timestampInMilliseconds: Int)
}

/// What every MediaPipe-compatible task shares, as `DetectorCore` is for the ML Kit layer: its PureVision task, the
/// relay of live-stream results to the MediaPipe delegate, and the bodies of the image, video and live-stream calls.
///
/// A wrapper (`Wrapper`, e.g. `FaceDetector`) declares its native task (`Native`), its result class (`Output`) and
/// its public entry points, each passing the matching native call to `image`, `videoFrame` or `liveStreamFrame`.
/// Those keep the `MPImage` alive while its pixels are read (they may be a locked `CVPixelBuffer`'s) and convert the
/// native result with the frame's timestamp.
final class TaskCore<Wrapper: AnyObject, Native: NativeVisionTask, Output: NativeResultConvertible>: Sendable
where Output.Native == Native.Options.Result {
    /// The PureVision task.
    let native: Native
    private let relay: LiveStreamRelay<Wrapper>

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
    ) throws {
        try LiveStreamDelegateRule.check(runningMode: runningMode, hasDelegate: delegate != nil)
        let relay = LiveStreamRelay<Wrapper>(delegate: delegate.map { $0 as AnyObject })
        var options = options
        options.runningMode = runningMode
        if runningMode == .liveStream {
            options.resultHandler = { event in
                relay.relay(event, to: Delegate.self) { wrapper, delegate, result, timestamp, error in
                    deliver(
                        delegate, wrapper, result.map { Output($0, timestampInMilliseconds: timestamp) }, timestamp,
                        error)
                }
            }
        }
        native = try Native(options: options)
        self.relay = relay
    }

    /// Names the wrapper passed to the delegate (call it at the end of the wrapper's initializer).
    func attach(_ wrapper: Wrapper) { relay.attach(wrapper) }

    /// An `.image` mode call: `run(task, pixels, processing)` on the image, with the processing options of `roi`
    /// (nil for `CGRect.zero`, the whole image); the result at timestamp 0.
    func image(
        _ image: MPImage, regionOfInterest roi: CGRect = .zero,
        _ run: (Native, PixelImage, ImageProcessingOptions?) throws -> Output.Native
    ) throws -> Output {
        try withExtendedLifetime(image) {
            Output(try run(native, image.pixelImage, roi.processingOptions), timestampInMilliseconds: 0)
        }
    }

    /// A `.video` mode call: `run(task, pixels, timestamp, processing)` on the frame, as in
    /// `image(_:regionOfInterest:_:)`; the result at the frame's timestamp.
    func videoFrame(
        _ image: MPImage, timestampInMilliseconds: Int, regionOfInterest roi: CGRect = .zero,
        _ run: (Native, PixelImage, Int, ImageProcessingOptions?) throws -> Output.Native
    ) throws -> Output {
        try withExtendedLifetime(image) {
            Output(
                try run(native, image.pixelImage, timestampInMilliseconds, roi.processingOptions),
                timestampInMilliseconds: timestampInMilliseconds)
        }
    }

    /// A `.liveStream` mode call: `submit(task, pixels, timestamp, processing)` queues the frame (the native task
    /// copies borrowed pixels); its result goes to the delegate.
    func liveStreamFrame(
        _ image: MPImage, timestampInMilliseconds: Int, regionOfInterest roi: CGRect = .zero,
        _ submit: (Native, PixelImage, Int, ImageProcessingOptions?) throws -> Void
    ) throws {
        try withExtendedLifetime(image) {
            try submit(native, image.pixelImage, timestampInMilliseconds, roi.processingOptions)
        }
    }

    /// The native task's `close()`.
    func close() { native.close() }
}

extension TaskOptions {
    /// These options with `modelAssetPath` set: what every task's `init(modelPath:)` passes to `init(options:)`.
    func withModelAssetPath(_ path: String) -> Self {
        baseOptions.modelAssetPath = path
        return self
    }
}
