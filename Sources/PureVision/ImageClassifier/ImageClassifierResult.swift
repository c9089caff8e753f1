/// The categories of one classification head (one model output tensor).
public struct Classifications: Sendable, Hashable, Codable {
    /// The index of the head: the output tensor's position among the model's outputs.
    public var headIndex: Int
    /// The output tensor's name in the metadata (e.g. `"score"`); nil for a model without metadata.
    public var headName: String?
    /// The kept categories, best score first.
    public var categories: [ResultCategory]

    /// Creates the value from its fields.
    public init(headIndex: Int, headName: String?, categories: [ResultCategory]) {
        self.headIndex = headIndex
        self.headName = headName
        self.categories = categories
    }
}

/// What an `ImageClassifier` found in one image or frame: MediaPipe's `ClassificationResult`.
public struct ImageClassifierResult: Sendable, Hashable, Codable {
    /// One entry per head, in output order.
    public var classifications: [Classifications]
    /// The frame's timestamp in video and live-stream mode; nil in image mode.
    public var timestampInMilliseconds: Int?

    /// Creates the value from its fields.
    public init(classifications: [Classifications], timestampInMilliseconds: Int? = nil) {
        self.classifications = classifications
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}
