import PureVisionImage

/// One frame handed to a vision task: the image and the call's `ImageProcessingOptions` (region of interest,
/// rotation). Every task's pipeline takes this one request type.
package struct VisionFrame: FrameRequest {
    package let image: PixelImage
    package let processing: ImageProcessingOptions?

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
