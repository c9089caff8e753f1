import PureVisionImage

/// MediaPipe's ObjectDetector, natively: image → stretched model input → SSD decoding against the anchors in the
/// model's metadata → non-max suppression → boxes in image pixels, matching MediaPipe Tasks 0.10.14.
///
/// Everything about the model comes from its metadata (`ObjectDetectionPipeline` lists what is read): nothing in
/// the code is specific to EfficientDet-Lite0, so other SSD models with MediaPipe's detector metadata run too.
/// Rotation (`ImageProcessingOptions`, the image orientation) is supported; a region of interest is not (as in
/// MediaPipe).
///
/// Categories keep the class index; MediaPipe clears it (C++ −1, Python None) when the model has labels.
/// An `ObjectDetector` is `Sendable`: calls from several threads are serialised.
public final class ObjectDetector: Sendable {
    /// The options the detector was created with.
    public let options: ObjectDetectorOptions
    /// The model's class names (and display names), index = class.
    public let labels: ClassificationLabels
    private let runner: TaskRunner<VisionFrame, ObjectDetectorResult>

    /// Creates a detector.
    /// - Throws: `VisionTaskError.invalidOption` for invalid options (`maxResults` 0, an allowlist together with a
    ///   denylist, a list on a model without labels), `.missingMetadata` naming the metadata entry a model lacks,
    ///   `.model` for a missing, unsupported or inconsistent model, `.resultHandler` for a handler that does not fit
    ///   the running mode.
    public init(options: ObjectDetectorOptions) throws(VisionTaskError) {
        try options.validate()
        self.options = options
        let pipeline = try ObjectDetectionPipeline(options: options)
        labels = pipeline.labels
        runner = try TaskRunner(
            options: options, label: "ObjectDetector",
            timestamping: { frame throws(VisionTaskError) in try pipeline.detect(frame) })
    }

    /// Creates an image-mode detector for the model at `modelPath` with default options.
    public convenience init(modelPath: String) throws(VisionTaskError) {
        try self.init(options: ObjectDetectorOptions(baseOptions: BaseOptions(modelAssetPath: modelPath)))
    }

    /// Detects objects in one image (`.image` mode).
    public func detect(
        image: PixelImage, imageProcessingOptions: ImageProcessingOptions? = nil
    ) throws(VisionTaskError) -> ObjectDetectorResult {
        try runner.image(image, imageProcessingOptions)
    }

    /// Detects objects in one video frame (`.video` mode); timestamps must strictly increase.
    public func detect(
        videoFrame image: PixelImage, timestampInMilliseconds: Int,
        imageProcessingOptions: ImageProcessingOptions? = nil
    ) throws(VisionTaskError) -> ObjectDetectorResult {
        try runner.video(image, imageProcessingOptions, at: timestampInMilliseconds)
    }

    /// Queues one camera frame (`.liveStream` mode) and returns at once; the outcome arrives on the result handler
    /// (and `liveStreamResults()`). A frame wrapping caller memory is copied first.
    public func detectAsync(
        image: PixelImage, timestampInMilliseconds: Int, imageProcessingOptions: ImageProcessingOptions? = nil
    ) throws(VisionTaskError) {
        try runner.liveStream(image, imageProcessingOptions, at: timestampInMilliseconds)
    }

    /// Detects objects in one image off the calling thread (`.image` mode).
    public func detect(image: PixelImage, imageProcessingOptions: ImageProcessingOptions? = nil) async throws
        -> ObjectDetectorResult
    {
        try await runner.imageAsync(image, imageProcessingOptions)
    }

    /// Detects objects in one video frame off the calling thread (`.video` mode); timestamps must strictly increase.
    public func detect(
        videoFrame image: PixelImage, timestampInMilliseconds: Int,
        imageProcessingOptions: ImageProcessingOptions? = nil
    ) async throws -> ObjectDetectorResult {
        try await runner.videoAsync(image, imageProcessingOptions, at: timestampInMilliseconds)
    }

    /// Every live-stream outcome from now on, in timestamp order; the stream ends when the detector is closed.
    public func liveStreamResults() -> AsyncStream<LiveStreamEvent<ObjectDetectorResult>> { runner.events() }

    /// Finishes queued live-stream frames, delivers their results and refuses further calls.
    public func close() { runner.close() }
}
