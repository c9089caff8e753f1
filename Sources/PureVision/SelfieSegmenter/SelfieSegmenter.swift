import PureVisionImage

/// Options of a `SelfieSegmenter`, in ML Kit's shape (`SelfieSegmenterOptions`).
public struct SelfieSegmenterOptions: Sendable {
    /// ML Kit's two modes.
    public enum Mode: Sendable, Hashable {
        /// Unrelated images, one call each.
        case singleImage
        /// Consecutive frames of a video or camera stream, with strictly increasing timestamps. (ML Kit also
        /// smooths masks over frames in this mode; its method is not published and is not reproduced: each frame
        /// is segmented on its own.)
        case stream
    }

    /// The model: MediaPipe's legacy selfie segmentation model (`selfie_segmentation.tflite`, or
    /// `selfie_segmentation_landscape.tflite` for 16:9 frames) or the Tasks `selfie_segmenter.tflite`.
    public var baseOptions: BaseOptions
    /// Default `.singleImage`.
    public var segmenterMode: Mode
    /// Whether the mask keeps the model's resolution (e.g. 256 × 256) instead of the image's. Default false.
    public var shouldEnableRawSizeMask: Bool

    /// Creates options.
    public init(baseOptions: BaseOptions, segmenterMode: Mode = .singleImage, shouldEnableRawSizeMask: Bool = false) {
        self.baseOptions = baseOptions
        self.segmenterMode = segmenterMode
        self.shouldEnableRawSizeMask = shouldEnableRawSizeMask
    }
}

/// ML Kit's `SegmentationMask`: the foreground (person) confidence per pixel, 0…1.
public struct SelfieSegmentationMask: Sendable, Hashable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// `width · height` confidences, row by row.
    public let confidences: [Float]

    /// The confidence at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> Float { confidences[y * width + x] }
}

/// ML Kit-style selfie segmentation on MediaPipe's selfie models: a thin layer over the segmentation pipeline
/// configured as MediaPipe's legacy `SelfieSegmentation` solution runs it (`selfie_segmentation_cpu.pbtxt`: the
/// image stretched to the model input with a **zero** border, values in [0, 1], the raw model output resized back
/// with OpenCV's bilinear resize), which `mediapipe.solutions.selfie_segmentation` 0.10.14 reproduces.
public final class SelfieSegmenter: Sendable {
    /// The options the segmenter was created with.
    public let options: SelfieSegmenterOptions
    private let pipeline: SegmentationPipeline
    private let runner: VisionTaskRunner<ImageSegmenterResult>

    /// Creates a segmenter.
    /// - Throws: `VisionTaskError.model` for a missing model or one with more than one class.
    public init(options: SelfieSegmenterOptions) throws(VisionTaskError) {
        self.options = options
        let pipeline = try SegmentationPipeline(
            options: ImageSegmenterOptions(baseOptions: options.baseOptions, outputConfidenceMasks: true),
            border: .zero)
        guard pipeline.classCount == 1 else {
            throw .model("a selfie segmentation model has one output channel; this one has \(pipeline.classCount)")
        }
        self.pipeline = pipeline
        let rawSize = options.shouldEnableRawSizeMask ? (pipeline.tensorWidth, pipeline.tensorHeight) : nil
        runner = try VisionTaskRunner(
            mode: options.segmenterMode == .stream ? .video : .image, label: "SelfieSegmenter",
            process: { frame, _ throws(VisionTaskError) in
                try pipeline.segment(frame, maskSize: rawSize)
            })
    }

    /// Segments one image (`.singleImage` mode).
    public func process(_ image: PixelImage) throws(VisionTaskError) -> SelfieSegmentationMask {
        try Self.mask(try runner.image(image, nil))
    }

    /// Segments one frame of a stream (`.stream` mode); timestamps must strictly increase.
    public func process(_ image: PixelImage, timestampInMilliseconds: Int) throws(VisionTaskError)
        -> SelfieSegmentationMask
    {
        try Self.mask(
            try runner.video(image, nil, at: timestampInMilliseconds))
    }

    private static func mask(_ result: ImageSegmenterResult) throws(VisionTaskError) -> SelfieSegmentationMask {
        guard let mask = result.confidenceMasks?.first else { throw .model("the model produced no mask") }
        return SelfieSegmentationMask(width: mask.width, height: mask.height, confidences: mask.values)
    }
}
