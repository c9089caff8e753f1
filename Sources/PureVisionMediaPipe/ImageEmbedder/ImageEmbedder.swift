import Foundation
import PureVision

/// Options of an `ImageEmbedder`: MediaPipe's `ImageEmbedderOptions` (`MPPImageEmbedderOptions`), with its
/// defaults.
public final class ImageEmbedderOptions: RunningModeTaskOptions {
    /// Whether each embedding is scaled to unit L2 norm. Default false.
    public var l2Normalize: Bool = false
    /// Whether each embedding is returned as signed bytes (`quantizedEmbedding`) instead of floats. Default false.
    public var quantize: Bool = false
    /// Receives live-stream results (`.liveStream` mode only); held weakly, as in MediaPipe.
    public weak var imageEmbedderLiveStreamDelegate: (any ImageEmbedderLiveStreamDelegate)?
}

/// Receives a live-stream `ImageEmbedder`'s results: MediaPipe's `ImageEmbedderLiveStreamDelegate`
/// (`MPPImageEmbedderLiveStreamDelegate`), without its `NSObjectProtocol` requirement so that it works on Linux.
///
/// Called on the embedder's own delivery thread, in timestamp order, once per processed frame; a frame dropped
/// because the embedder was busy is not reported (as in MediaPipe).
public protocol ImageEmbedderLiveStreamDelegate: AnyObject {
    /// One frame's outcome: a result, or nil and the error.
    func imageEmbedder(
        _ imageEmbedder: ImageEmbedder, didFinishEmbedding result: ImageEmbedderResult?, timestampInMilliseconds: Int,
        error: (any Error)?)
}

/// The embeddings of one image or frame: MediaPipe's `ImageEmbedderResult` (`MPPImageEmbedderResult`).
public final class ImageEmbedderResult: TaskResult, NativeResultConvertible, @unchecked Sendable {
    // @unchecked: as `TaskResult`'s, restated (Swift requires it); every stored property is an immutable value.
    /// The embeddings, one per model output: `result.embeddingResult.embeddings[0].floatEmbedding`.
    public let embeddingResult: EmbeddingResult

    /// Creates a result, as MediaPipe's `init(embeddingResult:timestampInMilliseconds:)`; nil is stored as an
    /// empty `EmbeddingResult` with the same timestamp.
    public init(embeddingResult: EmbeddingResult?, timestampInMilliseconds: Int) {
        self.embeddingResult =
            embeddingResult ?? EmbeddingResult(embeddings: [], timestampInMilliseconds: timestampInMilliseconds)
        super.init(timestampInMilliseconds: timestampInMilliseconds)
    }

    /// The same embeddings as PureVision's result.
    convenience init(_ native: PureVision.ImageEmbedderResult, timestampInMilliseconds: Int) {
        self.init(
            embeddingResult: EmbeddingResult(
                embeddings: native.embeddings.map(Embedding.init), timestampInMilliseconds: timestampInMilliseconds),
            timestampInMilliseconds: timestampInMilliseconds)
    }
}

/// MediaPipe's `ImageEmbedder` (`MPPImageEmbedder`) over PureVision's `ImageEmbedder`: its model is a `.tflite`
/// image embedder.
public final class ImageEmbedder: MediaPipeEmbeddingTask {
    /// What the task runs on (see `MediaPipeVisionTask`).
    public let core: TaskCore<ImageEmbedder, PureVision.ImageEmbedder, ImageEmbedderResult>

    /// MediaPipe's `init(options:)`. The options are read once; later changes to them have no effect.
    /// - Throws: `VisionTaskError` for a missing or unsupported model, or a live-stream delegate missing in
    ///   `.liveStream` mode or set in another mode.
    public init(options: ImageEmbedderOptions) throws {
        core = try TaskCore(
            options: PureVision.ImageEmbedderOptions(
                baseOptions: options.baseOptions.native, l2Normalize: options.l2Normalize, quantize: options.quantize),
            runningMode: options.runningMode, delegate: options.imageEmbedderLiveStreamDelegate
        ) { $0.imageEmbedder($1, didFinishEmbedding: $2, timestampInMilliseconds: $3, error: $4) }
        core.attach(self)
    }

    /// MediaPipe's `cosineSimilarity(embedding1:embedding2:)`: the cosine similarity of two embeddings of the same
    /// kind (both float or both quantized) and size, as PureVision's `ImageEmbedder.cosineSimilarity(_:_:)` computes
    /// it (MediaPipe's C++ arithmetic; MediaPipe's Objective-C version sums the products in double and can differ in
    /// the last digits).
    /// - Throws: `CosineSimilarityError` for embeddings of different kinds or sizes, empty ones, or a zero norm
    ///   (where MediaPipe's Objective-C version returns NaN for the last two).
    public static func cosineSimilarity(embedding1: Embedding, embedding2: Embedding) throws -> NSNumber {
        NSNumber(value: try PureVision.ImageEmbedder.cosineSimilarity(embedding1.native, embedding2.native))
    }
}
