import Foundation
import PureVision

/// The feature vector of one model output ("head"): MediaPipe's `Embedding` (`MPPEmbedding`).
///
/// Exactly one of `floatEmbedding` and `quantizedEmbedding` is set, as in MediaPipe: the values are `NSNumber`s
/// holding a `Float`, or an `Int8` (MediaPipe's `numberWithChar:`) when the embedder quantizes.
public final class Embedding: @unchecked Sendable {
    // @unchecked: every stored property is an immutable value; NSNumber is immutable.
    /// The vector as floats; nil when the embedder quantizes.
    public let floatEmbedding: [NSNumber]?
    /// The vector as signed bytes (−128…127); nil unless the embedder quantizes.
    public let quantizedEmbedding: [NSNumber]?
    /// The output's position among the model's outputs.
    public let headIndex: Int
    /// The output's name in the model's metadata; nil when the model names none.
    public let headName: String?

    /// Creates an embedding, as MediaPipe's `init(floatEmbedding:quantizedEmbedding:headIndex:headName:)`.
    public init(floatEmbedding: [NSNumber]?, quantizedEmbedding: [NSNumber]?, headIndex: Int, headName: String?) {
        self.floatEmbedding = floatEmbedding
        self.quantizedEmbedding = quantizedEmbedding
        self.headIndex = headIndex
        self.headName = headName
    }

    /// The same vector as PureVision's embedding.
    convenience init(_ native: PureVision.Embedding) {
        self.init(
            floatEmbedding: native.floatEmbedding?.map { NSNumber(value: $0) },
            quantizedEmbedding: native.quantizedEmbedding?.map { NSNumber(value: $0) }, headIndex: native.headIndex,
            headName: native.headName)
    }

    /// PureVision's embedding with the same values (floats as `Float`, quantized values as `Int8`).
    var native: PureVision.Embedding {
        PureVision.Embedding(
            floatEmbedding: floatEmbedding?.map(\.floatValue), quantizedEmbedding: quantizedEmbedding?.map(\.int8Value),
            headIndex: headIndex, headName: headName)
    }
}

/// The embeddings of one image or frame: MediaPipe's `EmbeddingResult` (`MPPEmbeddingResult`).
public final class EmbeddingResult: Sendable {
    /// One embedding per model output, in output order.
    public let embeddings: [Embedding]
    /// The frame's timestamp (0 in image mode).
    public let timestampInMilliseconds: Int

    /// Creates a result, as MediaPipe's `init(embeddings:timestampInMilliseconds:)`.
    public init(embeddings: [Embedding], timestampInMilliseconds: Int) {
        self.embeddings = embeddings
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}
