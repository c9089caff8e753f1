/// Options of an `ImageSegmenter`, with MediaPipe Tasks' defaults.
public struct ImageSegmenterOptions: Sendable {
    /// The model: a `.tflite` segmentation model, normally with MediaPipe / TFLite Support metadata.
    public var baseOptions: BaseOptions
    /// How the segmenter is fed. Default `.image`.
    public var runningMode: RunningMode
    /// The locale of the display names (the labels file with this `locale` in the metadata). Default `"en"`.
    public var displayNamesLocale: String
    /// Whether the result has the category mask (one class index per pixel). Default false.
    public var outputCategoryMask: Bool
    /// Whether the result has one confidence mask per class. Default true.
    public var outputConfidenceMasks: Bool
    /// Receives every live-stream frame's outcome, one at a time on the task's own delivery thread, in timestamp
    /// order. Required in `.liveStream` mode and not allowed in the others.
    public var resultHandler: (@Sendable (LiveStreamEvent<ImageSegmenterResult>) -> Void)?

    /// Creates options.
    public init(
        baseOptions: BaseOptions, runningMode: RunningMode = .image, displayNamesLocale: String = "en",
        outputCategoryMask: Bool = false, outputConfidenceMasks: Bool = true,
        resultHandler: (@Sendable (LiveStreamEvent<ImageSegmenterResult>) -> Void)? = nil
    ) {
        self.baseOptions = baseOptions
        self.runningMode = runningMode
        self.displayNamesLocale = displayNamesLocale
        self.outputCategoryMask = outputCategoryMask
        self.outputConfidenceMasks = outputConfidenceMasks
        self.resultHandler = resultHandler
    }

    /// Checks the options that do not depend on the model.
    /// - Throws: `VisionTaskError.invalidOption` when neither mask is asked for (MediaPipe: "At least one of
    ///   `output_confidence_masks` and `output_category_mask` must be set.").
    public func validate() throws(VisionTaskError) {
        guard outputCategoryMask || outputConfidenceMasks else {
            throw .invalidOption(
                name: "outputConfidenceMasks",
                reason: "At least one of `outputConfidenceMasks` and `outputCategoryMask` must be set.")
        }
    }
}
