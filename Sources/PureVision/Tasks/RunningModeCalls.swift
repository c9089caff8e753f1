import PureVisionImage

// The per-mode calls of the vision tasks, one protocol per verb (MediaPipe names each task's calls after what it
// does). Each call goes straight to the task's `VisionTaskRunner`, which checks the running mode and timestamps.

/// A vision task whose calls are named `detect`: the detectors (`FaceDetector`, `ObjectDetector`) and the
/// landmarkers (`FaceLandmarker`, `HandLandmarker`, `PoseLandmarker`).
public protocol DetectionTask: VisionTask {}

extension DetectionTask {
    /// Runs detection on one image (`.image` mode).
    /// - Throws: `VisionTaskError` for the wrong running mode, a closed task, an unusable image or processing
    ///   options the task does not support.
    public func detect(
        image: PixelImage, imageProcessingOptions: ImageProcessingOptions? = nil
    ) throws(VisionTaskError) -> Result {
        try runner.image(image, imageProcessingOptions)
    }

    /// Runs detection on one video frame (`.video` mode); timestamps must strictly increase.
    /// - Throws: as the image call does, and for a timestamp not after the previous one.
    public func detect(
        videoFrame image: PixelImage, timestampInMilliseconds: Int,
        imageProcessingOptions: ImageProcessingOptions? = nil
    ) throws(VisionTaskError) -> Result {
        try runner.video(image, imageProcessingOptions, at: timestampInMilliseconds)
    }

    /// Queues one camera frame (`.liveStream` mode) and returns at once; the outcome arrives on the result handler
    /// and `liveStreamResults()`. A frame wrapping caller memory is copied first.
    /// - Throws: `VisionTaskError` for the wrong running mode, a closed task or a timestamp not after the previous
    ///   one.
    public func detectAsync(
        image: PixelImage, timestampInMilliseconds: Int, imageProcessingOptions: ImageProcessingOptions? = nil
    ) throws(VisionTaskError) {
        try runner.liveStream(image, imageProcessingOptions, at: timestampInMilliseconds)
    }

    /// Runs detection on one image off the calling thread (`.image` mode).
    public func detect(image: PixelImage, imageProcessingOptions: ImageProcessingOptions? = nil) async throws
        -> Result
    {
        try await runner.imageAsync(image, imageProcessingOptions)
    }

    /// Runs detection on one video frame off the calling thread (`.video` mode); timestamps must strictly increase.
    public func detect(
        videoFrame image: PixelImage, timestampInMilliseconds: Int,
        imageProcessingOptions: ImageProcessingOptions? = nil
    ) async throws -> Result {
        try await runner.videoAsync(image, imageProcessingOptions, at: timestampInMilliseconds)
    }
}

/// A vision task whose calls are named `classify`: `ImageClassifier`.
public protocol ClassificationTask: VisionTask {}

extension ClassificationTask {
    /// Classifies one image (`.image` mode).
    /// - Throws: `VisionTaskError` for the wrong running mode, a closed task, an unusable image or processing
    ///   options the task does not support.
    public func classify(
        image: PixelImage, imageProcessingOptions: ImageProcessingOptions? = nil
    ) throws(VisionTaskError) -> Result {
        try runner.image(image, imageProcessingOptions)
    }

    /// Classifies one video frame (`.video` mode); timestamps must strictly increase.
    /// - Throws: as the image call does, and for a timestamp not after the previous one.
    public func classify(
        videoFrame image: PixelImage, timestampInMilliseconds: Int,
        imageProcessingOptions: ImageProcessingOptions? = nil
    ) throws(VisionTaskError) -> Result {
        try runner.video(image, imageProcessingOptions, at: timestampInMilliseconds)
    }

    /// Queues one camera frame (`.liveStream` mode) and returns at once; the outcome arrives on the result handler
    /// and `liveStreamResults()`. A frame wrapping caller memory is copied first.
    /// - Throws: `VisionTaskError` for the wrong running mode, a closed task or a timestamp not after the previous
    ///   one.
    public func classifyAsync(
        image: PixelImage, timestampInMilliseconds: Int, imageProcessingOptions: ImageProcessingOptions? = nil
    ) throws(VisionTaskError) {
        try runner.liveStream(image, imageProcessingOptions, at: timestampInMilliseconds)
    }

    /// Classifies one image off the calling thread (`.image` mode).
    public func classify(image: PixelImage, imageProcessingOptions: ImageProcessingOptions? = nil) async throws
        -> Result
    {
        try await runner.imageAsync(image, imageProcessingOptions)
    }

    /// Classifies one video frame off the calling thread (`.video` mode); timestamps must strictly increase.
    public func classify(
        videoFrame image: PixelImage, timestampInMilliseconds: Int,
        imageProcessingOptions: ImageProcessingOptions? = nil
    ) async throws -> Result {
        try await runner.videoAsync(image, imageProcessingOptions, at: timestampInMilliseconds)
    }
}

/// A vision task whose calls are named `embed`: `ImageEmbedder`.
public protocol EmbeddingTask: VisionTask {}

extension EmbeddingTask {
    /// Embeds one image (`.image` mode).
    /// - Throws: `VisionTaskError` for the wrong running mode, a closed task, an unusable image or processing
    ///   options the task does not support.
    public func embed(
        image: PixelImage, imageProcessingOptions: ImageProcessingOptions? = nil
    ) throws(VisionTaskError) -> Result {
        try runner.image(image, imageProcessingOptions)
    }

    /// Embeds one video frame (`.video` mode); timestamps must strictly increase.
    /// - Throws: as the image call does, and for a timestamp not after the previous one.
    public func embed(
        videoFrame image: PixelImage, timestampInMilliseconds: Int,
        imageProcessingOptions: ImageProcessingOptions? = nil
    ) throws(VisionTaskError) -> Result {
        try runner.video(image, imageProcessingOptions, at: timestampInMilliseconds)
    }

    /// Queues one camera frame (`.liveStream` mode) and returns at once; the outcome arrives on the result handler
    /// and `liveStreamResults()`. A frame wrapping caller memory is copied first.
    /// - Throws: `VisionTaskError` for the wrong running mode, a closed task or a timestamp not after the previous
    ///   one.
    public func embedAsync(
        image: PixelImage, timestampInMilliseconds: Int, imageProcessingOptions: ImageProcessingOptions? = nil
    ) throws(VisionTaskError) {
        try runner.liveStream(image, imageProcessingOptions, at: timestampInMilliseconds)
    }

    /// Embeds one image off the calling thread (`.image` mode).
    public func embed(image: PixelImage, imageProcessingOptions: ImageProcessingOptions? = nil) async throws
        -> Result
    {
        try await runner.imageAsync(image, imageProcessingOptions)
    }

    /// Embeds one video frame off the calling thread (`.video` mode); timestamps must strictly increase.
    public func embed(
        videoFrame image: PixelImage, timestampInMilliseconds: Int,
        imageProcessingOptions: ImageProcessingOptions? = nil
    ) async throws -> Result {
        try await runner.videoAsync(image, imageProcessingOptions, at: timestampInMilliseconds)
    }
}

/// A vision task whose calls are named `segment`: `ImageSegmenter`.
public protocol SegmentationTask: VisionTask {}

extension SegmentationTask {
    /// Segments one image (`.image` mode).
    /// - Throws: `VisionTaskError` for the wrong running mode, a closed task, an unusable image or processing
    ///   options the task does not support.
    public func segment(
        image: PixelImage, imageProcessingOptions: ImageProcessingOptions? = nil
    ) throws(VisionTaskError) -> Result {
        try runner.image(image, imageProcessingOptions)
    }

    /// Segments one video frame (`.video` mode); timestamps must strictly increase.
    /// - Throws: as the image call does, and for a timestamp not after the previous one.
    public func segment(
        videoFrame image: PixelImage, timestampInMilliseconds: Int,
        imageProcessingOptions: ImageProcessingOptions? = nil
    ) throws(VisionTaskError) -> Result {
        try runner.video(image, imageProcessingOptions, at: timestampInMilliseconds)
    }

    /// Queues one camera frame (`.liveStream` mode) and returns at once; the outcome arrives on the result handler
    /// and `liveStreamResults()`. A frame wrapping caller memory is copied first.
    /// - Throws: `VisionTaskError` for the wrong running mode, a closed task or a timestamp not after the previous
    ///   one.
    public func segmentAsync(
        image: PixelImage, timestampInMilliseconds: Int, imageProcessingOptions: ImageProcessingOptions? = nil
    ) throws(VisionTaskError) {
        try runner.liveStream(image, imageProcessingOptions, at: timestampInMilliseconds)
    }

    /// Segments one image off the calling thread (`.image` mode).
    public func segment(image: PixelImage, imageProcessingOptions: ImageProcessingOptions? = nil) async throws
        -> Result
    {
        try await runner.imageAsync(image, imageProcessingOptions)
    }

    /// Segments one video frame off the calling thread (`.video` mode); timestamps must strictly increase.
    public func segment(
        videoFrame image: PixelImage, timestampInMilliseconds: Int,
        imageProcessingOptions: ImageProcessingOptions? = nil
    ) async throws -> Result {
        try await runner.videoAsync(image, imageProcessingOptions, at: timestampInMilliseconds)
    }
}

/// A vision task whose calls are named `recognize`: `GestureRecognizer`.
public protocol GestureRecognitionTask: VisionTask {}

extension GestureRecognitionTask {
    /// Recognizes hand gestures in one image (`.image` mode).
    /// - Throws: `VisionTaskError` for the wrong running mode, a closed task, an unusable image or processing
    ///   options the task does not support.
    public func recognize(
        image: PixelImage, imageProcessingOptions: ImageProcessingOptions? = nil
    ) throws(VisionTaskError) -> Result {
        try runner.image(image, imageProcessingOptions)
    }

    /// Recognizes hand gestures in one video frame (`.video` mode); timestamps must strictly increase.
    /// - Throws: as the image call does, and for a timestamp not after the previous one.
    public func recognize(
        videoFrame image: PixelImage, timestampInMilliseconds: Int,
        imageProcessingOptions: ImageProcessingOptions? = nil
    ) throws(VisionTaskError) -> Result {
        try runner.video(image, imageProcessingOptions, at: timestampInMilliseconds)
    }

    /// Queues one camera frame (`.liveStream` mode) and returns at once; the outcome arrives on the result handler
    /// and `liveStreamResults()`. A frame wrapping caller memory is copied first.
    /// - Throws: `VisionTaskError` for the wrong running mode, a closed task or a timestamp not after the previous
    ///   one.
    public func recognizeAsync(
        image: PixelImage, timestampInMilliseconds: Int, imageProcessingOptions: ImageProcessingOptions? = nil
    ) throws(VisionTaskError) {
        try runner.liveStream(image, imageProcessingOptions, at: timestampInMilliseconds)
    }

    /// Recognizes hand gestures in one image off the calling thread (`.image` mode).
    public func recognize(image: PixelImage, imageProcessingOptions: ImageProcessingOptions? = nil) async throws
        -> Result
    {
        try await runner.imageAsync(image, imageProcessingOptions)
    }

    /// Recognizes hand gestures in one video frame off the calling thread (`.video` mode); timestamps must strictly increase.
    public func recognize(
        videoFrame image: PixelImage, timestampInMilliseconds: Int,
        imageProcessingOptions: ImageProcessingOptions? = nil
    ) async throws -> Result {
        try await runner.videoAsync(image, imageProcessingOptions, at: timestampInMilliseconds)
    }
}
