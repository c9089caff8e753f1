import PureVision
import PureVisionImage

/// A vision task as the image subcommands run it: made from its options, then given one image (image mode) or one
/// video frame and its timestamp (video mode) at a time. The `detect` tasks get both calls from `DetectionTask`; the
/// others name their own methods.
protocol FrameTask {
    /// The task's options type.
    associatedtype Options
    /// What the task gives for one image.
    associatedtype Result

    /// Loads the task's models.
    init(options: Options) throws

    /// Processes an independent image (`.image` mode).
    func process(image: PixelImage) throws -> Result

    /// Processes a video frame (`.video` mode); timestamps must strictly increase.
    func process(videoFrame: PixelImage, timestampInMilliseconds: Int) throws -> Result
}

extension FrameTask {
    /// Processes `image`, the picture of `item`, as `mode` says: a video frame at the item's timestamp, or an image.
    func process(_ image: PixelImage, of item: BatchItem, mode: RunningMode) throws -> Result {
        mode == .video
            ? try process(videoFrame: image, timestampInMilliseconds: item.timestampInMilliseconds)
            : try process(image: image)
    }
}

extension FrameTask where Self: DetectionTask {
    func process(image: PixelImage) throws -> Result { try detect(image: image) }

    func process(videoFrame: PixelImage, timestampInMilliseconds: Int) throws -> Result {
        try detect(videoFrame: videoFrame, timestampInMilliseconds: timestampInMilliseconds)
    }
}

extension FaceDetector: FrameTask {}
extension ObjectDetector: FrameTask {}
extension HandLandmarker: FrameTask {}
extension PoseLandmarker: FrameTask {}
extension FaceLandmarker: FrameTask {}

extension GestureRecognizer: FrameTask {
    func process(image: PixelImage) throws -> GestureRecognizerResult { try recognize(image: image) }

    func process(videoFrame: PixelImage, timestampInMilliseconds: Int) throws -> GestureRecognizerResult {
        try recognize(videoFrame: videoFrame, timestampInMilliseconds: timestampInMilliseconds)
    }
}

extension ImageSegmenter: FrameTask {
    func process(image: PixelImage) throws -> ImageSegmenterResult { try segment(image: image) }

    func process(videoFrame: PixelImage, timestampInMilliseconds: Int) throws -> ImageSegmenterResult {
        try segment(videoFrame: videoFrame, timestampInMilliseconds: timestampInMilliseconds)
    }
}

extension FaceAnalyzer: FrameTask {
    func process(image: PixelImage) throws -> [Face] { try results(in: image) }

    func process(videoFrame: PixelImage, timestampInMilliseconds: Int) throws -> [Face] {
        try results(inVideoFrame: videoFrame, timestampInMilliseconds: timestampInMilliseconds)
    }
}
