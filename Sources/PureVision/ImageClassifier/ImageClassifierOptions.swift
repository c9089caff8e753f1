/// Options of an `ImageClassifier`, with MediaPipe Tasks' defaults.
///
/// `scoreThreshold` differs on purpose from MediaPipe's languages, which disagree among themselves: C++, iOS and
/// current Python send 0 (overriding the model's threshold), Python 0.10.14 and JavaScript leave it unset. Here nil
/// means "the model's `ScoreThresholdingOptions` if its metadata has one, else no threshold" (Python 0.10.14 and
/// JavaScript); set 0 to get the C++ / iOS behaviour.
public struct ImageClassifierOptions: Sendable {
    /// The model: a `.tflite` image classifier, normally with MediaPipe / TFLite Support metadata.
    public var baseOptions: BaseOptions
    /// How the classifier is fed. Default `.image`.
    public var runningMode: RunningMode
    /// The locale of the display names (the labels file with this `locale` in the metadata). Default `"en"`.
    public var displayNamesLocale: String
    /// The most categories per head, best first; −1 (the default) or any negative value keeps all. 0 is an error.
    public var maxResults: Int
    /// Categories scoring below this are dropped; nil uses the model's metadata threshold, if any (see above).
    public var scoreThreshold: Float?
    /// Only these category names are kept. Names the model does not have are ignored; if none matches, no filter
    /// applies at all (MediaPipe's behaviour). Exclusive with `categoryDenylist`; needs a model with labels.
    public var categoryAllowlist: [String]
    /// These category names are dropped; unknown names are ignored. Exclusive with `categoryAllowlist`; needs a
    /// model with labels.
    public var categoryDenylist: [String]
    /// Receives every live-stream frame's outcome, one at a time on the task's own delivery thread, in timestamp
    /// order. Required in `.liveStream` mode and not allowed in the others.
    public var resultHandler: (@Sendable (LiveStreamEvent<ImageClassifierResult>) -> Void)?
    /// The input normalization `(pixel − mean) / std` for a model whose metadata has none. Required for an int8-input
    /// model without metadata (e.g. `efficientnet_lite0_int8.tflite`: mean 127, std 128); a float model without
    /// metadata uses it instead of its default range [0, 1]. Ignored when the metadata has NormalizationOptions.
    public var inputNormalization: InputNormalization?
    /// A labels file (UTF-8, one name per line, in class-index order) for outputs whose metadata has no labels, or
    /// for a model without metadata; nil leaves such outputs with indices only. The line count must equal the
    /// number of classes.
    public var labelsFilePath: String?

    /// Creates options.
    public init(
        baseOptions: BaseOptions, runningMode: RunningMode = .image, displayNamesLocale: String = "en",
        maxResults: Int = -1, scoreThreshold: Float? = nil, categoryAllowlist: [String] = [],
        categoryDenylist: [String] = [],
        resultHandler: (@Sendable (LiveStreamEvent<ImageClassifierResult>) -> Void)? = nil,
        inputNormalization: InputNormalization? = nil, labelsFilePath: String? = nil
    ) {
        self.baseOptions = baseOptions
        self.runningMode = runningMode
        self.displayNamesLocale = displayNamesLocale
        self.maxResults = maxResults
        self.scoreThreshold = scoreThreshold
        self.categoryAllowlist = categoryAllowlist
        self.categoryDenylist = categoryDenylist
        self.resultHandler = resultHandler
        self.inputNormalization = inputNormalization
        self.labelsFilePath = labelsFilePath
    }

    /// Checks the options that do not depend on the model, as MediaPipe does first.
    /// - Throws: `VisionTaskError.invalidOption` for `maxResults` 0, both lists set, or a non-finite threshold.
    public func validate() throws(VisionTaskError) {
        try ClassifierOptionChecks.validate(
            maxResults: maxResults, categoryAllowlist: categoryAllowlist, categoryDenylist: categoryDenylist,
            scoreThreshold: scoreThreshold, kept: "categories")
        if let inputNormalization {
            guard inputNormalization.mean.isFinite, inputNormalization.std.isFinite, inputNormalization.std != 0 else {
                throw .invalidOption(name: "inputNormalization", reason: "mean and std must be finite, std non-zero")
            }
        }
    }
}

/// An image input normalization: each channel value becomes `(pixel − mean) / std`, pixels in 0…255.
public struct InputNormalization: Sendable, Hashable {
    /// Subtracted from each 0…255 pixel value.
    public var mean: Float
    /// The divisor (non-zero).
    public var std: Float

    /// Creates a normalization.
    public init(mean: Float, std: Float) {
        self.mean = mean
        self.std = std
    }
}
