import PureVisionEngine
import PureVisionImage
import PureVisionKernels
import PureVisionTFLite

/// MediaPipe's FaceDetector (BlazeFace), natively: image → letterboxed model input → SSD decoding → weighted
/// non-max suppression → detections in image coordinates, matching MediaPipe Tasks 0.10.14.
///
/// The model decides the configuration: a 128×128 input is the short-range model (896 anchors), a 192×192 input
/// the full-range one (2304 anchors). Rotation through `ImageProcessingOptions` and the image orientation is
/// supported; a region of interest is not (as in MediaPipe).
///
/// A `FaceDetector` is `Sendable`: calls from several threads are serialised.
public final class FaceDetector: DetectionTask {
    /// The options the detector was created with.
    public let options: FaceDetectorOptions
    /// The running-mode machine that serves the task's calls.
    public let runner: VisionTaskRunner<FaceDetectorResult>

    /// Creates a detector.
    /// - Throws: `VisionTaskError` for options out of range, a missing or unsupported model, or a result handler
    ///   that does not fit the running mode.
    public init(options: FaceDetectorOptions) throws(VisionTaskError) {
        try OptionChecks.fractions([
            ("minDetectionConfidence", options.minDetectionConfidence),
            ("minSuppressionThreshold", options.minSuppressionThreshold),
        ])
        self.options = options
        let pipeline = try FaceDetectionPipeline(options: options)
        runner = try VisionTaskRunner(
            options: options, label: "FaceDetector",
            process: { frame, _ throws(VisionTaskError) in try pipeline.detect(frame) })
    }

    /// Creates an image-mode detector for the model at `modelPath` with default options.
    public convenience init(modelPath: String) throws(VisionTaskError) {
        try self.init(options: FaceDetectorOptions(baseOptions: BaseOptions(modelAssetPath: modelPath)))
    }
}

/// The prepared detection pipeline: the SSD detector (model, anchors, decoding) and the suppression settings.
final class FaceDetectionPipeline: Sendable {
    let detector: SSDDetector
    let suppression: NonMaxSuppressionOptions
    /// The detector's model.
    var loaded: LoadedModel { detector.model }

    /// Loads the detector; `pool` is the thread pool of the task it is part of, if any (`LoadedModel.sharedPool`).
    /// The input size picks the configuration: 128×128 is the short-range model, 192×192 the full-range one.
    init(options: FaceDetectorOptions, pool: ThreadPool? = nil) throws(VisionTaskError) {
        let loaded = try LoadedModel.load(options.baseOptions, pool: pool)
        let input = try ImageToTensorConverter.floatRGBInputSize(of: loaded.interpreter, role: "face detector")
        let anchorOptions: SSDAnchorOptions
        var decoder: DetectionDecoderOptions
        switch (input.width, input.height) {
        case (128, 128):
            anchorOptions = .faceShortRange128
            decoder = .faceShortRange128
        case (192, 192):
            anchorOptions = .faceFullRange192
            decoder = .faceFullRange192
        default:
            throw .model(
                "unsupported face detector input \(input.width)×\(input.height): expected 128×128 or 192×192")
        }
        decoder.minScoreThresh = options.minDetectionConfidence
        // Tasks take the range from the model's metadata; models without it use BlazeFace's [-1, 1].
        detector = try SSDDetector(
            model: loaded, role: "face detector", inputSide: input.width, anchorOptions: anchorOptions,
            boxCoordinates: 16, decoderOptions: decoder, defaultRange: (-1, 1))
        var nms = NonMaxSuppressionOptions.faceDetection
        nms.minSuppressionThreshold = options.minSuppressionThreshold
        suppression = nms
    }

    func detect(_ frame: VisionFrame) throws(VisionTaskError) -> FaceDetectorResult {
        let image = frame.image
        return FaceDetectorResult(detections: try detectNormalized(frame).map { Self.pixelDetection($0, image: image) })
    }

    /// The detections in image-normalized coordinates, best first (before MediaPipe's conversion to pixels).
    func detectNormalized(_ frame: VisionFrame) throws(VisionTaskError) -> [NormalizedDetection] {
        let image = frame.image
        let rect = try ImageProcessingOptions.imageRect(
            of: image, processing: frame.processing, roiAllowed: false)
        let (decoded, transform) = try detector.detect(image, rect: rect, stage: "face")
        let kept = NonMaxSuppression.suppress(decoded, options: suppression) ?? []
        do throws(DetectionError) {
            return try DetectionProjection.project(kept, matrix: transform.matrix)
        } catch {
            throw .model("projection: \(error)")
        }
    }

    /// MediaPipe's conversion to a pixel box: each of xmin, ymin, width, height is scaled and truncated toward
    /// zero on its own, then clamped to the image. The categories are `categories`, or else the detection's class and
    /// score.
    static func pixelDetection(
        _ detection: NormalizedDetection, image: PixelImage, categories: [ResultCategory]? = nil
    ) -> Detection {
        let w = Float(image.width)
        let h = Float(image.height)
        func pixels(_ value: Float, _ extent: Float, _ limit: Int) -> Int {
            let scaled = value * extent
            guard scaled.isFinite else { return 0 }
            return min(max(Int(scaled.rounded(.towardZero)), 0), limit)
        }
        let box = BoundingBox(
            originX: pixels(detection.xMin, w, image.width), originY: pixels(detection.yMin, h, image.height),
            width: pixels(detection.width, w, image.width), height: pixels(detection.height, h, image.height))
        return Detection(
            boundingBox: box,
            categories: categories ?? [ResultCategory(index: detection.classID, score: detection.score)],
            keypoints: detection.keypoints)
    }

    static func taskError(_ error: PreprocessingError) -> VisionTaskError {
        switch error {
        case .mirroredOrientation(let orientation): return .image(.mirroredOrientation(orientation))
        case .regionOfInterestNotSupported: return .regionOfInterestNotSupported
        default: break
        }
        return .invalidOption(name: "imageProcessingOptions", reason: "\(error)")
    }
}
