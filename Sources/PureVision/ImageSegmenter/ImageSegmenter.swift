import PureVisionEngine
import PureVisionImage
import PureVisionTFLite

/// MediaPipe's ImageSegmenter, natively: image → stretched model input (REPLICATE border, the metadata's
/// normalization) → per-pixel class confidences and a category mask at the image's size, matching MediaPipe Tasks
/// 0.10.14 (`image_segmenter_graph.cc`, `tensors_to_segmentation_calculator.cc`).
///
/// - Labels and display names come from the labels file of the model's last output in the metadata; the
///   activation (none, sigmoid, softmax) from the `SEGMENTER_METADATA` entry (none when absent). A model without
///   metadata still runs: its float input gets the range [0, 1] (MediaPipe refuses such a model), its classes have
///   indices only (`labels` is empty) and no activation is applied.
/// - Confidence masks: the activation at the model's resolution, then OpenCV's half-pixel bilinear resize to the
///   image size. The category mask is computed separately from the raw output, by align-corners bilinear sampling
///   at every image pixel, so near edges it can differ from the argmax of the confidence masks (as in MediaPipe).
///   A one-class model (the selfie segmenters) gets MediaPipe's convention: 0 where the value is > 0.5 (the
///   person), 255 elsewhere.
/// - Rotation (`ImageProcessingOptions.rotationDegrees`, the image orientation) is supported; a region of
///   interest is refused (`VisionTaskError.regionOfInterestNotSupported`), as MediaPipe's segmenter refuses it.
///
/// Models with a 4-channel input (MediaPipe's legacy RGBA path, for which no model was available to verify it) are
/// refused.
///
/// An `ImageSegmenter` is `Sendable`: calls from several threads are serialised.
public final class ImageSegmenter: SegmentationTask {
    /// The options the segmenter was created with.
    public let options: ImageSegmenterOptions
    /// The class names in mask order (label index = confidence-mask index = category value); empty when the model
    /// has no labels in its metadata.
    public let labels: [String]
    /// The class display names for `ImageSegmenterOptions.displayNamesLocale`, when the metadata has them.
    public let displayNames: [String]?
    /// The number of classes: the number of confidence masks.
    public let classCount: Int
    /// The running-mode machine that serves the task's calls.
    public let runner: VisionTaskRunner<ImageSegmenterResult>

    /// Creates a segmenter.
    /// - Throws: `VisionTaskError.invalidOption` when neither mask is requested, `.model` for a missing, unsupported
    ///   or non-segmentation model (or a `.task` bundle), `.resultHandler` for a handler that does not fit the
    ///   running mode.
    public init(options: ImageSegmenterOptions) throws(VisionTaskError) {
        let pipeline = try SegmentationPipeline(options: options)
        self.options = options
        labels = pipeline.labels
        displayNames = pipeline.displayNames
        classCount = pipeline.classCount
        runner = try VisionTaskRunner(
            options: options, label: "ImageSegmenter",
            timestamping: { frame throws(VisionTaskError) in try pipeline.segment(frame) })
    }

    /// Creates an image-mode segmenter for the model at `modelPath` with default options (confidence masks only).
    public convenience init(modelPath: String) throws(VisionTaskError) {
        try self.init(options: ImageSegmenterOptions(baseOptions: BaseOptions(modelAssetPath: modelPath)))
    }
}
