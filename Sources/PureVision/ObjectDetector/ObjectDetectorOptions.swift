/// Options of an `ObjectDetector`, with MediaPipe Tasks' defaults.
public struct ObjectDetectorOptions: Sendable {
    /// The model: a `.tflite` detector with MediaPipe / TFLite Support metadata (e.g. `efficientdet_lite0.tflite`).
    public var baseOptions: BaseOptions
    /// How the detector is fed. Default `.image`.
    public var runningMode: RunningMode
    /// The locale of the display names (the labels file with this `locale` in the metadata). Default `"en"`.
    public var displayNamesLocale: String
    /// The most detections per image, best first; −1 (the default) or any negative value keeps all. 0 is an error.
    public var maxResults: Int
    /// Detections scoring below this are dropped. Default 0: MediaPipe's ObjectDetector always passes its own
    /// threshold to the post-processing, so a threshold in the model's metadata never applies.
    public var scoreThreshold: Float
    /// Only these category names compete for a box's score. Unknown names are ignored; if none matches, no filter
    /// applies at all (MediaPipe's behaviour). Exclusive with `categoryDenylist`; needs a model with labels.
    public var categoryAllowlist: [String]
    /// These category names never compete for a box's score; unknown names are ignored. Exclusive with
    /// `categoryAllowlist`; needs a model with labels.
    public var categoryDenylist: [String]
    /// Receives every live-stream frame's outcome, one at a time on the task's own delivery thread, in timestamp
    /// order. Required in `.liveStream` mode and not allowed in the others.
    public var resultHandler: (@Sendable (LiveStreamEvent<ObjectDetectorResult>) -> Void)?

    /// Creates options.
    public init(
        baseOptions: BaseOptions, runningMode: RunningMode = .image, displayNamesLocale: String = "en",
        maxResults: Int = -1, scoreThreshold: Float = 0, categoryAllowlist: [String] = [],
        categoryDenylist: [String] = [],
        resultHandler: (@Sendable (LiveStreamEvent<ObjectDetectorResult>) -> Void)? = nil
    ) {
        self.baseOptions = baseOptions
        self.runningMode = runningMode
        self.displayNamesLocale = displayNamesLocale
        self.maxResults = maxResults
        self.scoreThreshold = scoreThreshold
        self.categoryAllowlist = categoryAllowlist
        self.categoryDenylist = categoryDenylist
        self.resultHandler = resultHandler
    }

    /// Checks the options that do not depend on the model, as MediaPipe does first.
    /// - Throws: `VisionTaskError.invalidOption` for `maxResults` 0, both lists set, or a NaN threshold.
    public func validate() throws(VisionTaskError) {
        try ClassifierOptionChecks.validate(
            maxResults: maxResults, categoryAllowlist: categoryAllowlist, categoryDenylist: categoryDenylist,
            scoreThreshold: scoreThreshold, kept: "detections")
    }
}

/// What an `ObjectDetector` found in one image or frame: MediaPipe's `DetectionResult`.
public struct ObjectDetectorResult: Sendable, Hashable, Codable {
    /// The detections, best first (MediaPipe's suppression order). Boxes are in integer pixels of the stored image;
    /// each detection has one category (several only when MediaPipe's de-duplication merged identical boxes) and no
    /// keypoints for the bundled model.
    public var detections: [Detection]
    /// The frame's timestamp in video and live-stream mode; nil in image mode.
    public var timestampInMilliseconds: Int?

    /// Creates the value from its fields.
    public init(detections: [Detection], timestampInMilliseconds: Int? = nil) {
        self.detections = detections
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}
