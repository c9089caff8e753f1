import PureVisionEngine
import PureVisionImage
import PureVisionTFLite

/// MediaPipe's ImageClassifier, natively: image → stretched model input (REPLICATE border, the metadata's
/// normalization) → one classification head per output tensor, matching MediaPipe Tasks 0.10.14.
///
/// Everything about the model comes from its metadata: the input range, labels and display names (associated
/// files), score calibration, the score threshold and the head names. A model without metadata still runs: its
/// float input gets the range [0, 1] (MediaPipe refuses such a model) and its categories have indices only.
/// A uint8-input model gets the raw 0…255 pixels, as in MediaPipe. An int8-input model (which MediaPipe refuses)
/// gets each pixel normalized — `(p − mean) / std` from the metadata or `ImageClassifierOptions.inputNormalization`
/// — then quantized with the input tensor's scale and zero point (`round(v / scale) + zeroPoint`, ties away from
/// zero, clamped to −128…127). uint8, int8 and bool outputs are dequantized with their scale and zero point. Outputs
/// without labels in the metadata take them from `ImageClassifierOptions.labelsFilePath` when it is set.
///
/// A region of interest and rotation (`ImageProcessingOptions`, and the image orientation) are supported.
/// An `ImageClassifier` is `Sendable`: calls from several threads are serialised.
public final class ImageClassifier: ClassificationTask {
    /// The options the classifier was created with.
    public let options: ImageClassifierOptions
    /// The labels of each head, in output order (empty names for a head without labels).
    public let labels: [ClassificationLabels]
    /// The running-mode machine that serves the task's calls.
    public let runner: VisionTaskRunner<ImageClassifierResult>

    /// Creates a classifier.
    /// - Throws: `VisionTaskError.invalidOption` for invalid options (`maxResults` 0, an allowlist together with a
    ///   denylist, a list on a model without labels), `.model` for a missing or unsupported model or inconsistent
    ///   metadata, `.resultHandler` for a handler that does not fit the running mode.
    public init(options: ImageClassifierOptions) throws(VisionTaskError) {
        try options.validate()
        self.options = options
        let pipeline = try ClassificationPipeline(options: options)
        labels = pipeline.heads.map(\.labels)
        runner = try VisionTaskRunner(
            options: options, label: "ImageClassifier",
            timestamping: { frame throws(VisionTaskError) in try pipeline.classify(frame) })
    }

    /// Creates an image-mode classifier for the model at `modelPath` with default options.
    public convenience init(modelPath: String) throws(VisionTaskError) {
        try self.init(options: ImageClassifierOptions(baseOptions: BaseOptions(modelAssetPath: modelPath)))
    }

    /// The labels of every head of a model, with display names for `displayNamesLocale`, without preparing it
    /// to run.
    /// - Throws: `VisionTaskError.model` for an unreadable model or metadata.
    public static func labels(
        of baseOptions: BaseOptions, displayNamesLocale: String = "en"
    ) throws(VisionTaskError) -> [ClassificationLabels] {
        let model: TFLiteModel
        do { model = try TFLiteModel(bytes: try LoadedModel.bytes(of: baseOptions)) } catch let error as VisionTaskError
        {
            throw error
        } catch {
            throw .model("\(error)")
        }
        let metadata: ModelMetadata?
        do { metadata = try model.modelMetadata() } catch { throw .model("metadata: \(error)") }
        let subgraph = metadata?.subgraphs.first
        let outputCount = model.subgraphs.first?.outputs.count ?? 0
        var result: [ClassificationLabels] = []
        for index in 0..<outputCount {
            let tensor = subgraph.flatMap { $0.outputTensors.indices.contains(index) ? $0.outputTensors[index] : nil }
            result.append(
                try ClassificationLabels.read(
                    model: model, tensor: tensor, headIndex: index, locale: displayNamesLocale))
        }
        return result
    }
}

/// The prepared classification pipeline: model, input and heads.
final class ClassificationPipeline: Sendable {
    let loaded: LoadedModel
    let imageInput: ImageModelInput
    let heads: [ClassificationHead]
    /// For an int8 input: the quantized value of each 0…255 pixel, applied in place after the byte conversion.
    let int8Table: [Int8]?

    init(options: ImageClassifierOptions) throws(VisionTaskError) {
        loaded = try LoadedModel.load(options.baseOptions)
        let interpreter = loaded.interpreter
        let input = try ImageModelInput.tensor(of: interpreter, task: "an image classifier")
        let range: (min: Float, max: Float)
        let isByteInput: Bool
        let optionRange = options.inputNormalization.map { n in ((0 - n.mean) / n.std, (255 - n.mean) / n.std) }
        switch input.elementType {
        case .float32:
            range = try loaded.inputRange() ?? optionRange ?? (0, 1)
            isByteInput = false
            int8Table = nil
        case .uint8:
            range = (0, 1)
            isByteInput = true
            int8Table = nil
        case .int8:
            range = (0, 1)
            isByteInput = true
            guard let q = input.quantization, q.scale.isFinite, q.scale > 0 else {
                throw .model("int8 input '\(input.name)' has no usable scale")
            }
            let normalization: InputNormalization
            if let metadata = try loaded.inputNormalization() {
                normalization = metadata
            } else if let option = options.inputNormalization {
                normalization = option
            } else {
                throw .model(
                    "int8 input '\(input.name)' needs a normalization: the model's metadata has none, so set "
                        + "ImageClassifierOptions.inputNormalization (e.g. mean 127, std 128)")
            }
            int8Table = (0...255).map { pixel in
                let value = (Float(pixel) - normalization.mean) / normalization.std
                let scaled = (value / q.scale).rounded(.toNearestOrAwayFromZero)
                let quantized = Int(max(min(scaled, 1e6), -1e6)) + q.zeroPoint
                return Int8(clamping: quantized)
            }
        default:
            throw .model(
                "input '\(input.name)' is \(input.elementType): only float32, uint8 and int8 image inputs are "
                    + "supported")
        }
        imageInput = try ImageModelInput(input, isByteInput: isByteInput, range: range)
        let metadata: ModelMetadata?
        do { metadata = try loaded.model.modelMetadata() } catch { throw .model("metadata: \(error)") }
        let subgraph = metadata?.subgraphs.first
        let outputs = interpreter.outputs
        guard !outputs.isEmpty else { throw .model("the model has no outputs") }
        if let subgraph, !subgraph.outputTensors.isEmpty, subgraph.outputTensors.count != outputs.count {
            throw .model(
                "the model has \(outputs.count) outputs but metadata for \(subgraph.outputTensors.count)")
        }
        let quantized = outputs.filter { [.uint8, .int8, .bool].contains($0.elementType) }.count
        guard quantized == 0 || quantized == outputs.count else {
            throw .model("either all or none of a classifier's outputs must be quantized")
        }
        var heads: [ClassificationHead] = []
        for (index, output) in outputs.enumerated() {
            heads.append(
                try ClassificationHead.make(
                    index: index, output: output, model: loaded.model, metadata: subgraph, options: options))
        }
        self.heads = heads
    }

    func classify(_ frame: VisionFrame) throws(VisionTaskError) -> ImageClassifierResult {
        try imageInput.withFrame(frame, roiAllowed: true, in: loaded.interpreter) {
            session, _ throws(VisionTaskError) -> ImageClassifierResult in
            if let int8Table {
                let input = session.input(0).bindMemory(to: UInt8.self)
                int8Table.withUnsafeBufferPointer { table in
                    for i in input.indices { input[i] = UInt8(bitPattern: table[Int(input[i])]) }
                }
            }
            session.invoke()
            var classifications: [Classifications] = []
            for head in heads {
                if head.quantization != nil {
                    let raw = session.output(head.headIndex).bindMemory(to: UInt8.self)
                    classifications.append(head.classify(floats: nil, bytes: raw))
                } else {
                    classifications.append(head.classify(floats: session.floatOutput(head.headIndex), bytes: nil))
                }
            }
            return ImageClassifierResult(classifications: classifications)
        }
    }
}
