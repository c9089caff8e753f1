import PureVisionImage

/// One frame handed to a vision task: the image and the call's `ImageProcessingOptions` (region of interest,
/// rotation). Every task's pipeline takes this one request type.
struct VisionFrame: FrameRequest {
    let image: PixelImage
    let processing: ImageProcessingOptions?

    /// A frame for the image or video calls, which process `image` before they return.
    init(image: PixelImage, processing: ImageProcessingOptions? = nil) {
        self.image = image
        self.processing = processing
    }

    /// A frame for a call that returns before the frame is processed (live stream and the `async` forms): an image
    /// that wraps caller memory is copied first, since the caller may reuse that memory as soon as the call returns.
    static func retained(_ image: PixelImage, processing: ImageProcessingOptions?) -> VisionFrame {
        VisionFrame(image: image.isBorrowed ? image.ownedCopy() : image, processing: processing)
    }
}

/// What the running-mode machine reads from a task's options.
package protocol VisionTaskOptions: Sendable {
    /// What the task produces for one frame.
    associatedtype TaskResult: Sendable
    /// How the task is fed.
    var runningMode: RunningMode { get }
    /// The live-stream result handler: required in `.liveStream` mode, refused in the others.
    var resultHandler: (@Sendable (LiveStreamEvent<TaskResult>) -> Void)? { get }
}

/// A task result that carries its frame's timestamp in video and live-stream modes (nil in image mode), as
/// MediaPipe's classifier, embedder, segmenter and object detector results do.
package protocol TimestampedTaskResult: Sendable {
    /// The frame's timestamp; nil in image mode.
    var timestampInMilliseconds: Int? { get set }
}

/// The entry points every vision task shares, one per running mode, each a thin call from the task's documented
/// public method (`detect`, `classify`, `embed`, `segment`, `recognize`, …).
extension TaskRunner where Request == VisionFrame {
    /// A runner in the running mode of `options`, with its result handler; `process` runs one frame and gets the
    /// frame's timestamp (0 in image mode).
    /// - Throws: `VisionTaskError.resultHandler` for a handler that does not fit the running mode.
    convenience init<Options: VisionTaskOptions>(
        options: Options, label: String, process: @escaping Process
    ) throws(VisionTaskError) where Options.TaskResult == Result {
        try self.init(mode: options.runningMode, label: label, handler: options.resultHandler, process: process)
    }

    /// A runner like ``init(options:label:process:)`` whose results carry the frame's timestamp outside image mode.
    convenience init<Options: VisionTaskOptions>(
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
    func image(_ image: PixelImage, _ processing: ImageProcessingOptions?) throws(VisionTaskError) -> Result {
        try runImage(VisionFrame(image: image, processing: processing))
    }

    /// Video mode: processes `image` now; its timestamp must exceed the previous one.
    func video(_ image: PixelImage, _ processing: ImageProcessingOptions?, at timestamp: Int)
        throws(VisionTaskError) -> Result
    {
        try runVideo(VisionFrame(image: image, processing: processing), timestampInMilliseconds: timestamp)
    }

    /// Live-stream mode: queues `image` (copied if it wraps caller memory) and returns at once.
    func liveStream(_ image: PixelImage, _ processing: ImageProcessingOptions?, at timestamp: Int)
        throws(VisionTaskError)
    {
        try submit(.retained(image, processing: processing), timestampInMilliseconds: timestamp)
    }

    /// Image mode, off the calling thread.
    func imageAsync(_ image: PixelImage, _ processing: ImageProcessingOptions?) async throws -> Result {
        try await runImageAsync(.retained(image, processing: processing))
    }

    /// Video mode, off the calling thread.
    func videoAsync(_ image: PixelImage, _ processing: ImageProcessingOptions?, at timestamp: Int) async throws
        -> Result
    {
        try await runVideoAsync(.retained(image, processing: processing), timestampInMilliseconds: timestamp)
    }
}
