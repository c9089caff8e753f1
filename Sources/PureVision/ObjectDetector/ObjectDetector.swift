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
public final class ObjectDetector: DetectionTask {
    /// The options the detector was created with.
    public let options: ObjectDetectorOptions
    /// The model's class names (and display names), index = class.
    public let labels: ClassificationLabels
    /// The running-mode machine that serves the task's calls.
    public let runner: VisionTaskRunner<ObjectDetectorResult>

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
        runner = try VisionTaskRunner(
            options: options, label: "ObjectDetector",
            timestamping: { frame throws(VisionTaskError) in try pipeline.detect(frame) })
    }

    /// Creates an image-mode detector for the model at `modelPath` with default options.
    public convenience init(modelPath: String) throws(VisionTaskError) {
        try self.init(options: ObjectDetectorOptions(baseOptions: BaseOptions(modelAssetPath: modelPath)))
    }
}
