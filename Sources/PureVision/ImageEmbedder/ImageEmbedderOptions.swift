/// Options of an `ImageEmbedder`, with MediaPipe Tasks' defaults.
public struct ImageEmbedderOptions: Sendable {
    /// The model: a `.tflite` feature extractor (e.g. `efficientnet_lite0_embedder.tflite`), with MediaPipe / TFLite
    /// Support metadata when its input is float32.
    public var baseOptions: BaseOptions
    /// How the embedder is fed. Default `.image`.
    public var runningMode: RunningMode
    /// Scale each embedding to unit L2 norm. Default false (as MediaPipe's, whose option struct leaves it unset).
    public var l2Normalize: Bool
    /// Return each embedding as int8 (`round(v · 128)` clamped to −128…127, after the optional normalization)
    /// instead of float. Default false.
    public var quantize: Bool
    /// Receives every live-stream frame's outcome, one at a time on the task's own delivery thread, in timestamp
    /// order. Required in `.liveStream` mode and not allowed in the others.
    public var resultHandler: (@Sendable (LiveStreamEvent<ImageEmbedderResult>) -> Void)?

    /// Creates options.
    public init(
        baseOptions: BaseOptions, runningMode: RunningMode = .image, l2Normalize: Bool = false,
        quantize: Bool = false, resultHandler: (@Sendable (LiveStreamEvent<ImageEmbedderResult>) -> Void)? = nil
    ) {
        self.baseOptions = baseOptions
        self.runningMode = runningMode
        self.l2Normalize = l2Normalize
        self.quantize = quantize
        self.resultHandler = resultHandler
    }
}

/// One embedding: the feature vector of one model output (a "head").
public struct Embedding: Sendable, Hashable, Codable {
    /// The vector when the embedder does not quantize; nil otherwise.
    public var floatEmbedding: [Float]?
    /// The vector when the embedder quantizes (`ImageEmbedderOptions.quantize`); nil otherwise.
    public var quantizedEmbedding: [Int8]?
    /// The output tensor's position among the model's outputs.
    public var headIndex: Int
    /// The output tensor's metadata name; nil when no output of the model has one.
    public var headName: String?

    /// Creates the value from its fields.
    public init(floatEmbedding: [Float]?, quantizedEmbedding: [Int8]?, headIndex: Int, headName: String?) {
        self.floatEmbedding = floatEmbedding
        self.quantizedEmbedding = quantizedEmbedding
        self.headIndex = headIndex
        self.headName = headName
    }
}

/// What an `ImageEmbedder` computed for one image or frame: MediaPipe's `EmbeddingResult`.
public struct ImageEmbedderResult: Sendable, Hashable, Codable {
    /// One embedding per model output, in output order.
    public var embeddings: [Embedding]
    /// The frame's timestamp in video and live-stream mode; nil in image mode.
    public var timestampInMilliseconds: Int?

    /// Creates the value from its fields.
    public init(embeddings: [Embedding], timestampInMilliseconds: Int? = nil) {
        self.embeddings = embeddings
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}

/// Why `ImageEmbedder.cosineSimilarity(_:_:)` refused two embeddings (MediaPipe's InvalidArgument cases; the
/// descriptions are MediaPipe's messages).
public enum CosineSimilarityError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The vectors have different lengths.
    case differentSizes(Int, Int)
    /// One embedding is float and the other quantized (or one has no vector).
    case mixedKinds
    /// The vectors are empty.
    case empty
    /// A vector has norm 0.
    case zeroNorm

    /// MediaPipe's message for the error.
    public var description: String {
        switch self {
        case .differentSizes(let a, let b):
            "Cannot compute cosine similarity between embeddings of different sizes (\(a) vs. \(b))"
        case .mixedKinds: "Cannot compute cosine similarity between quantized and float embeddings"
        case .empty: "Cannot compute cosing similarity on empty embeddings"
        case .zeroNorm: "Cannot compute cosine similarity on embedding with 0 norm"
        }
    }
}
