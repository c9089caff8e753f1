import Foundation
import PureVision

/// What every MediaPipe-compatible task is: MediaPipe's class (`FaceDetector`, `ImageClassifier` …) over PureVision's
/// task of the same name, made from MediaPipe's options, fed in one running mode, closed at the end.
///
/// A task declares its options, live-stream delegate and result classes, its `init(options:)` (which maps the
/// options and names the delegate's method) and the `TaskCore` it runs on; its MediaPipe calls come from the
/// protocol that names them after what it does: `MediaPipeDetectionTask` (`detect`), `MediaPipeClassificationTask`
/// (`classify`), `MediaPipeEmbeddingTask` (`embed`), `MediaPipeSegmentationTask` (`segment`) or
/// `MediaPipeGestureRecognitionTask` (`recognize`). Each call has MediaPipe's name and labels and takes an `MPImage`;
/// it throws `VisionTaskError` for the wrong running mode, a closed task, an unusable image and, in video and
/// live-stream modes, a timestamp not after the previous one. In `.liveStream` mode the results go to the options'
/// live-stream delegate, on the task's own delivery thread.
public protocol MediaPipeVisionTask: AnyObject, Sendable {
    /// MediaPipe's options class of the task.
    associatedtype Options: TaskOptions
    /// PureVision's task it runs.
    associatedtype NativeTask: VisionTask
    /// MediaPipe's result class for one image or frame.
    associatedtype Result
    /// What the task runs on: the native task, the relay of its live-stream results to the delegate, the calls.
    var core: TaskCore<Self, NativeTask, Result> { get }

    /// MediaPipe's `init(options:)`. The options are read once; later changes to them have no effect.
    /// - Throws: `VisionTaskError` for invalid options, a missing or unsupported model, or a live-stream delegate
    ///   missing in `.liveStream` mode or set in another mode.
    init(options: Options) throws
}

extension MediaPipeVisionTask {
    /// MediaPipe's `init(modelPath:)`: an `.image` mode task with MediaPipe's default options for the model at
    /// `modelPath` (the task's documentation says which models it takes).
    /// - Throws: `VisionTaskError` for a missing, malformed or unsupported model.
    public init(modelPath: String) throws {
        let options = Options()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    /// Beyond MediaPipe: finishes the queued live-stream frames, delivers their results and refuses further calls.
    public func close() { core.close() }
}

/// A MediaPipe-compatible task whose calls are named `detect`: the detectors (`FaceDetector`, `ObjectDetector`) and
/// the landmarkers (`FaceLandmarker`, `HandLandmarker`, `PoseLandmarker`).
public protocol MediaPipeDetectionTask: MediaPipeVisionTask where NativeTask: DetectionTask {}

extension MediaPipeDetectionTask {
    /// MediaPipe's `detect(image:)` (`.image` mode).
    /// - Throws: `VisionTaskError` for the wrong running mode or an unusable image.
    public func detect(image: MPImage) throws -> Result { try core.image(image) }

    /// MediaPipe's `detect(videoFrame:timestampInMilliseconds:)` (`.video` mode); timestamps must increase.
    /// - Throws: `VisionTaskError` for the wrong running mode, a timestamp not after the previous one, or an
    ///   unusable image.
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> Result {
        try core.videoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// MediaPipe's `detectAsync(image:timestampInMilliseconds:)` (`.liveStream` mode): returns at once; the result
    /// goes to the options' live-stream delegate.
    /// - Throws: `VisionTaskError` for the wrong running mode or a timestamp not after the previous one.
    public func detectAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try core.liveStreamFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }
}

/// A MediaPipe-compatible task whose calls are named `segment`: `ImageSegmenter`.
public protocol MediaPipeSegmentationTask: MediaPipeVisionTask where NativeTask: SegmentationTask {}

extension MediaPipeSegmentationTask {
    /// MediaPipe's `segment(image:)` (`.image` mode).
    /// - Throws: `VisionTaskError` for the wrong running mode or an unusable image.
    public func segment(image: MPImage) throws -> Result { try core.image(image) }

    /// MediaPipe's `segment(videoFrame:timestampInMilliseconds:)` (`.video` mode); timestamps must increase.
    /// - Throws: `VisionTaskError` for the wrong running mode, a timestamp not after the previous one, or an
    ///   unusable image.
    public func segment(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> Result {
        try core.videoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// MediaPipe's `segmentAsync(image:timestampInMilliseconds:)` (`.liveStream` mode): returns at once; the result
    /// goes to the options' live-stream delegate.
    /// - Throws: `VisionTaskError` for the wrong running mode or a timestamp not after the previous one.
    public func segmentAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try core.liveStreamFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }
}

/// A MediaPipe-compatible task whose calls are named `recognize`: `GestureRecognizer`.
public protocol MediaPipeGestureRecognitionTask: MediaPipeVisionTask where NativeTask: GestureRecognitionTask {}

extension MediaPipeGestureRecognitionTask {
    /// MediaPipe's `recognize(image:)` (`.image` mode).
    /// - Throws: `VisionTaskError` for the wrong running mode or an unusable image.
    public func recognize(image: MPImage) throws -> Result { try core.image(image) }

    /// MediaPipe's `recognize(videoFrame:timestampInMilliseconds:)` (`.video` mode); timestamps must increase.
    /// - Throws: `VisionTaskError` for the wrong running mode, a timestamp not after the previous one, or an
    ///   unusable image.
    public func recognize(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> Result {
        try core.videoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// MediaPipe's `recognizeAsync(image:timestampInMilliseconds:)` (`.liveStream` mode): returns at once; the
    /// result goes to the options' live-stream delegate.
    /// - Throws: `VisionTaskError` for the wrong running mode or a timestamp not after the previous one.
    public func recognizeAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try core.liveStreamFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }
}

/// A MediaPipe-compatible task whose calls are named `classify`: `ImageClassifier`. Each call also has a form with
/// a region of interest, `roi`, in normalized coordinates of the upright image; `CGRect.zero` is the whole image,
/// and a region the task cannot use is refused with `VisionTaskError`.
public protocol MediaPipeClassificationTask: MediaPipeVisionTask where NativeTask: ClassificationTask {}

extension MediaPipeClassificationTask {
    /// MediaPipe's `classify(image:)` (`.image` mode), on the whole image.
    /// - Throws: `VisionTaskError` for the wrong running mode or an unusable image.
    public func classify(image: MPImage) throws -> Result { try core.image(image) }

    /// MediaPipe's `classify(image:regionOfInterest:)` (`.image` mode).
    /// - Throws: as `classify(image:)`, or for an invalid region.
    public func classify(image: MPImage, regionOfInterest roi: CGRect) throws -> Result {
        try core.image(image, regionOfInterest: roi)
    }

    /// MediaPipe's `classify(videoFrame:timestampInMilliseconds:)` (`.video` mode); timestamps must increase.
    /// - Throws: `VisionTaskError` for the wrong running mode, a timestamp not after the previous one, or an
    ///   unusable image.
    public func classify(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> Result {
        try core.videoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// MediaPipe's `classify(videoFrame:timestampInMilliseconds:regionOfInterest:)` (`.video` mode).
    /// - Throws: as `classify(videoFrame:timestampInMilliseconds:)`, or for an invalid region.
    public func classify(videoFrame image: MPImage, timestampInMilliseconds: Int, regionOfInterest roi: CGRect)
        throws -> Result
    {
        try core.videoFrame(image, timestampInMilliseconds: timestampInMilliseconds, regionOfInterest: roi)
    }

    /// MediaPipe's `classifyAsync(image:timestampInMilliseconds:)` (`.liveStream` mode): returns at once; the
    /// result goes to the options' live-stream delegate.
    /// - Throws: `VisionTaskError` for the wrong running mode or a timestamp not after the previous one.
    public func classifyAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try core.liveStreamFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// MediaPipe's `classifyAsync(image:timestampInMilliseconds:regionOfInterest:)` (`.liveStream` mode).
    /// - Throws: as `classifyAsync(image:timestampInMilliseconds:)`, or for an invalid region.
    public func classifyAsync(image: MPImage, timestampInMilliseconds: Int, regionOfInterest roi: CGRect) throws {
        try core.liveStreamFrame(image, timestampInMilliseconds: timestampInMilliseconds, regionOfInterest: roi)
    }
}

/// A MediaPipe-compatible task whose calls are named `embed`: `ImageEmbedder`. Each call also has a form with a
/// region of interest, as `MediaPipeClassificationTask`'s.
public protocol MediaPipeEmbeddingTask: MediaPipeVisionTask where NativeTask: EmbeddingTask {}

extension MediaPipeEmbeddingTask {
    /// MediaPipe's `embed(image:)` (`.image` mode), on the whole image.
    /// - Throws: `VisionTaskError` for the wrong running mode or an unusable image.
    public func embed(image: MPImage) throws -> Result { try core.image(image) }

    /// MediaPipe's `embed(image:regionOfInterest:)` (`.image` mode).
    /// - Throws: as `embed(image:)`, or for an invalid region.
    public func embed(image: MPImage, regionOfInterest roi: CGRect) throws -> Result {
        try core.image(image, regionOfInterest: roi)
    }

    /// MediaPipe's `embed(videoFrame:timestampInMilliseconds:)` (`.video` mode); timestamps must increase.
    /// - Throws: `VisionTaskError` for the wrong running mode, a timestamp not after the previous one, or an
    ///   unusable image.
    public func embed(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> Result {
        try core.videoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// MediaPipe's `embed(videoFrame:timestampInMilliseconds:regionOfInterest:)` (`.video` mode).
    /// - Throws: as `embed(videoFrame:timestampInMilliseconds:)`, or for an invalid region.
    public func embed(videoFrame image: MPImage, timestampInMilliseconds: Int, regionOfInterest roi: CGRect)
        throws -> Result
    {
        try core.videoFrame(image, timestampInMilliseconds: timestampInMilliseconds, regionOfInterest: roi)
    }

    /// MediaPipe's `embedAsync(image:timestampInMilliseconds:)` (`.liveStream` mode): returns at once; the result
    /// goes to the options' live-stream delegate.
    /// - Throws: `VisionTaskError` for the wrong running mode or a timestamp not after the previous one.
    public func embedAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try core.liveStreamFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// MediaPipe's `embedAsync(image:timestampInMilliseconds:regionOfInterest:)` (`.liveStream` mode).
    /// - Throws: as `embedAsync(image:timestampInMilliseconds:)`, or for an invalid region.
    public func embedAsync(image: MPImage, timestampInMilliseconds: Int, regionOfInterest roi: CGRect) throws {
        try core.liveStreamFrame(image, timestampInMilliseconds: timestampInMilliseconds, regionOfInterest: roi)
    }
}
