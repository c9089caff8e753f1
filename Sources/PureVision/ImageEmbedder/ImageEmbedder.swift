import PureVisionEngine
import PureVisionImage
import PureVisionTFLite

/// MediaPipe's ImageEmbedder, natively: image (or a region of it, optionally rotated) → stretched model input →
/// one embedding per model output, optionally L2-normalized and / or quantized, matching MediaPipe Tasks 0.10.14.
///
/// The input range comes from the metadata's `NormalizationOptions` for a float32 input (required, as in
/// MediaPipe); a uint8 input gets the raw pixels. Outputs must be all float32 or all uint8 (dequantized with their
/// scale and zero point). An `ImageEmbedder` is `Sendable`: calls from several threads are serialised.
public final class ImageEmbedder: EmbeddingTask {
    /// The options the embedder was created with.
    public let options: ImageEmbedderOptions
    /// The running-mode machine that serves the task's calls.
    public let runner: VisionTaskRunner<ImageEmbedderResult>

    /// Creates an embedder.
    /// - Throws: `VisionTaskError.missingMetadata` for a float model without normalization metadata, `.model` for a
    ///   missing or unsupported model, `.resultHandler` for a handler that does not fit the running mode.
    public init(options: ImageEmbedderOptions) throws(VisionTaskError) {
        self.options = options
        let pipeline = try EmbeddingPipeline(options: options)
        runner = try VisionTaskRunner(
            options: options, label: "ImageEmbedder",
            timestamping: { frame throws(VisionTaskError) in try pipeline.embed(frame) })
    }

    /// Creates an image-mode embedder for the model at `modelPath` with default options.
    public convenience init(modelPath: String) throws(VisionTaskError) {
        try self.init(options: ImageEmbedderOptions(baseOptions: BaseOptions(modelAssetPath: modelPath)))
    }

    /// The cosine similarity of two embeddings, as MediaPipe's C++ `CosineSimilarity`: products in float (exact
    /// for quantized values), sums of `u·v`, `u·u` and `v·v` in double, in element order, then
    /// `dot / sqrt(‖u‖² · ‖v‖²)`.
    /// - Throws: `CosineSimilarityError` for embeddings of different kinds or sizes, empty ones, or a zero norm.
    public static func cosineSimilarity(_ u: Embedding, _ v: Embedding) throws(CosineSimilarityError) -> Double {
        if let a = u.floatEmbedding, let b = v.floatEmbedding {
            guard a.count == b.count else { throw .differentSizes(a.count, b.count) }
            return try cosine(count: a.count) { (Double(a[$0] * b[$0]), Double(a[$0] * a[$0]), Double(b[$0] * b[$0])) }
        }
        if let a = u.quantizedEmbedding, let b = v.quantizedEmbedding {
            guard a.count == b.count else { throw .differentSizes(a.count, b.count) }
            return try cosine(count: a.count) { i in
                let (x, y) = (Int(a[i]), Int(b[i]))
                return (Double(x * y), Double(x * x), Double(y * y))
            }
        }
        throw .mixedKinds
    }

    private static func cosine(
        count: Int, _ products: (Int) -> (uv: Double, uu: Double, vv: Double)
    ) throws(CosineSimilarityError) -> Double {
        guard count > 0 else { throw .empty }
        var dot = 0.0
        var normU = 0.0
        var normV = 0.0
        for i in 0..<count {
            let p = products(i)
            dot += p.uv
            normU += p.uu
            normV += p.vv
        }
        guard normU > 0, normV > 0 else { throw .zeroNorm }
        return dot / (normU * normV).squareRoot()
    }
}

/// The prepared embedding pipeline: model, converter and per-head settings (MediaPipe's ImageEmbedderGraph with its
/// EmbeddingPostprocessingGraph and TensorsToEmbeddingsCalculator).
final class EmbeddingPipeline: Sendable {
    let loaded: LoadedModel
    let imageInput: ImageModelInput
    let headNames: [String?]
    /// Per output, for uint8 outputs: the scale and zero point; nil entries for float outputs.
    let dequantization: [TensorDescription.Quantization?]
    let l2Normalize: Bool
    let quantize: Bool

    init(options: ImageEmbedderOptions) throws(VisionTaskError) {
        loaded = try LoadedModel.load(options.baseOptions)
        l2Normalize = options.l2Normalize
        quantize = options.quantize
        let interpreter = loaded.interpreter
        imageInput = try ImageModelInput.normalizedByMetadata(
            try ImageModelInput.tensor(of: interpreter, task: "an image embedder"), of: loaded)
        let metadata: ModelMetadata?
        do { metadata = try loaded.model.modelMetadata() } catch { throw .model("metadata: \(error)") }
        let outputs = interpreter.outputs
        guard !outputs.isEmpty else { throw .model("the model has no outputs") }
        let outputMetadata = metadata?.subgraphs.first?.outputTensors ?? []
        if metadata != nil, outputMetadata.count != outputs.count {
            throw .model(
                "Mismatch between number of output tensors (\(outputs.count)) and output tensors metadata "
                    + "(\(outputMetadata.count)).")
        }
        let names = outputs.indices.map { outputMetadata.indices.contains($0) ? outputMetadata[$0].name : nil }
        headNames = names.contains { $0 != nil } ? names : names.map { _ in nil }
        if outputs.allSatisfy({ $0.elementType == .float32 }) {
            dequantization = outputs.map { _ in nil }
        } else if outputs.allSatisfy({ $0.elementType == .uint8 }) {
            var parameters: [TensorDescription.Quantization?] = []
            for output in outputs {
                guard let q = output.quantization else {
                    throw .model("uint8 output '\(output.name)' has no scale and zero point")
                }
                parameters.append(q)
            }
            dequantization = parameters
        } else {
            throw .model(
                "an embedder's outputs must be all float32 or all uint8; found \(outputs.map(\.elementType))")
        }
    }

    func embed(_ frame: VisionFrame) throws(VisionTaskError) -> ImageEmbedderResult {
        try imageInput.withFrame(frame, roiAllowed: true, in: loaded.interpreter) {
            session, _ throws(VisionTaskError) -> ImageEmbedderResult in
            session.invoke()
            var embeddings: [Embedding] = []
            for (index, name) in headNames.enumerated() {
                let values: [Float]
                if let q = dequantization[index] {
                    values = session.output(index).map { q.scale * Float(Int($0) - q.zeroPoint) }
                } else {
                    values = Array(session.floatOutput(index))
                }
                embeddings.append(
                    Self.embedding(
                        values, headIndex: index, headName: name, l2Normalize: l2Normalize, quantize: quantize))
            }
            return ImageEmbedderResult(embeddings: embeddings)
        }
    }

    /// MediaPipe's TensorsToEmbeddingsCalculator for one head: `inv = 1 / sqrtf(Σ v²)` (float sum in element order;
    /// 1 when the sum is 0 or normalization is off); float values `v · inv`, quantized values
    /// `clamp(roundf(v · inv · 128), −128, 127)`.
    static func embedding(
        _ values: [Float], headIndex: Int, headName: String?, l2Normalize: Bool, quantize: Bool
    ) -> Embedding {
        var inverseNorm: Float = 1
        if l2Normalize {
            var sum: Float = 0
            for v in values { sum += v * v }
            if sum > 0 { inverseNorm = 1 / sum.squareRoot() }
        }
        if quantize {
            let bytes = values.map { v -> Int8 in
                let scaled = (v * inverseNorm * 128).rounded(.toNearestOrAwayFromZero)
                return Int8(max(-128, min(127, scaled.isNaN ? 0 : scaled)))
            }
            return Embedding(floatEmbedding: nil, quantizedEmbedding: bytes, headIndex: headIndex, headName: headName)
        }
        let floats = l2Normalize ? values.map { $0 * inverseNorm } : values
        return Embedding(floatEmbedding: floats, quantizedEmbedding: nil, headIndex: headIndex, headName: headName)
    }
}
