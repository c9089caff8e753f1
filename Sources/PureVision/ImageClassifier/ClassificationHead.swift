import Foundation
import PureVisionCore
import PureVisionEngine
import PureVisionTFLite

/// The postprocessing of one output tensor: MediaPipe's `ClassificationPostprocessingGraph` for one head
/// (dequantize → calibrate → filter → sort → truncate → label).
struct ClassificationHead: Sendable {
    let headIndex: Int
    let labels: ClassificationLabels
    let classCount: Int
    /// `real = scale · (q − zeroPoint)` for a uint8 / int8 / bool output (`isSigned` for int8); nil for float32.
    let quantization: (scale: Float, zeroPoint: Int, isSigned: Bool)?
    let calibration: ScoreCalibration?
    /// Scores below this are dropped (`-Float.greatestFiniteMagnitude` when there is none).
    let threshold: Float
    /// The allowed (or denied) class indices; nil when no filter applies.
    let filter: (indices: Set<Int>, isAllowlist: Bool)?
    /// How many categories to keep; nil for all.
    let maxResults: Int?

    /// Scores and labels one output, given as float32 (`floats`) or as its raw 8-bit values (`bytes`).
    func classify(floats: UnsafeBufferPointer<Float>?, bytes: UnsafeBufferPointer<UInt8>?) -> Classifications {
        var kept: [(index: Int, score: Float)] = []
        kept.reserveCapacity(classCount)
        for index in 0..<classCount {
            var score: Float
            if let floats {
                score = floats[index]
            } else if let bytes, let quantization {
                let q = quantization.isSigned ? Int(Int8(bitPattern: bytes[index])) : Int(bytes[index])
                score = quantization.scale * Float(q - quantization.zeroPoint)
            } else {
                score = 0
            }
            if let calibration { score = calibration.calibrate(score, index: index) }
            if let filter, filter.indices.contains(index) != filter.isAllowlist { continue }
            if score < threshold { continue }
            kept.append((index, score))
        }
        // MediaPipe's std::sort is not stable; equal scores are put in index order here.
        kept.sort { $0.score != $1.score ? $0.score > $1.score : $0.index < $1.index }
        if let maxResults, kept.count > maxResults { kept.removeLast(kept.count - maxResults) }
        let names = labels.names
        let displayNames = labels.displayNames
        let categories = kept.map { entry in
            ResultCategory(
                index: entry.index, score: entry.score,
                categoryName: names.isEmpty ? nil : names[entry.index],
                displayName: displayNames?[entry.index])
        }
        return Classifications(headIndex: headIndex, headName: labels.headName, categories: categories)
    }

    /// The classifier options a head uses (MediaPipe's `ClassifierOptions` plus a labels file), shared by the
    /// tasks that post-process classifier outputs.
    struct Settings {
        var displayNamesLocale: String
        var maxResults: Int
        var scoreThreshold: Float?
        var categoryAllowlist: [String]
        var categoryDenylist: [String]
        var labelsFilePath: String?
    }

    /// Configures head `index` from the model's metadata and the image classifier's options.
    static func make(
        index: Int, output: TensorDescription, model: TFLiteModel, metadata: SubGraphMetadata?,
        options: ImageClassifierOptions
    ) throws(VisionTaskError) -> ClassificationHead {
        try make(
            index: index, output: output, model: model, metadata: metadata,
            settings: Settings(
                displayNamesLocale: options.displayNamesLocale, maxResults: options.maxResults,
                scoreThreshold: options.scoreThreshold, categoryAllowlist: options.categoryAllowlist,
                categoryDenylist: options.categoryDenylist, labelsFilePath: options.labelsFilePath))
    }

    /// Configures head `index` from the model's metadata and the settings.
    static func make(
        index: Int, output: TensorDescription, model: TFLiteModel, metadata: SubGraphMetadata?,
        settings options: Settings
    ) throws(VisionTaskError) -> ClassificationHead {
        let classCount = output.shape.elementCount
        guard classCount > 0 else { throw .model("output \(index) '\(output.name)' is empty") }
        var quantization: (scale: Float, zeroPoint: Int, isSigned: Bool)?
        switch output.elementType {
        case .float32: break
        case .uint8, .bool, .int8:
            guard let q = output.quantization, q.scale.isFinite, q.scale > 0 else {
                throw .model("quantized output \(index) '\(output.name)' has no usable scale")
            }
            quantization = (q.scale, q.zeroPoint, output.elementType == .int8)
        default:
            throw .model(
                "output \(index) '\(output.name)' is \(output.elementType); a classifier's outputs must be "
                    + "float32, uint8, int8 or bool")
        }
        let tensor = metadata.flatMap { $0.outputTensors.indices.contains(index) ? $0.outputTensors[index] : nil }
        var labels = try ClassificationLabels.read(
            model: model, tensor: tensor, headIndex: index, locale: options.displayNamesLocale)
        if labels.names.isEmpty, let path = options.labelsFilePath {
            let data: [UInt8]
            do { data = try readFileContents(atPath: path) } catch {
                throw .model("cannot read the labels file '\(path)': \(error.reason)")
            }
            let names = try ClassificationLabels.lines(of: data[...], file: path)
            guard names.count == classCount else {
                throw .model(
                    "the labels file '\(path)' has \(names.count) lines for the \(classCount) classes of output \(index)"
                )
            }
            labels = ClassificationLabels(headIndex: index, headName: labels.headName, names: names, displayNames: nil)
        }
        guard labels.names.isEmpty || labels.names.count == classCount else {
            throw .model("output \(index) has \(classCount) classes but \(labels.names.count) labels")
        }
        var calibration: ScoreCalibration?
        var metadataThreshold: Float?
        for unit in tensor?.processUnits ?? [] {
            switch unit {
            case .scoreCalibration(let transformation, let defaultScore) where calibration == nil:
                guard let file = tensor?.associatedFiles.first(where: { $0.type == .tensorAxisScoreCalibration }),
                    let name = file.name
                else {
                    throw .model(
                        "ScoreCalibrationOptions without a TENSOR_AXIS_SCORE_CALIBRATION file on output \(index)")
                }
                let parsed = try ScoreCalibration(
                    transformation: transformation, defaultScore: defaultScore,
                    file: try ClassificationLabels.associatedFile(model, name))
                guard parsed.sigmoids.count == classCount else {
                    throw .model(
                        "'\(name)' has \(parsed.sigmoids.count) lines (a final line break counts as one) for "
                            + "\(classCount) classes")
                }
                calibration = parsed
            case .scoreThresholding(let threshold) where metadataThreshold == nil:
                metadataThreshold = threshold
            default: break
            }
        }
        var filter: (indices: Set<Int>, isAllowlist: Bool)?
        let list = options.categoryAllowlist.isEmpty ? options.categoryDenylist : options.categoryAllowlist
        if !list.isEmpty {
            guard !labels.names.isEmpty else {
                throw .invalidOption(
                    name: options.categoryAllowlist.isEmpty ? "categoryDenylist" : "categoryAllowlist",
                    reason: "needs labels in the model's metadata, and output \(index) has none")
            }
            var firstIndex: [String: Int] = [:]
            for (position, name) in labels.names.enumerated() where firstIndex[name] == nil {
                firstIndex[name] = position
            }
            let indices = Set(list.compactMap { firstIndex[$0] })
            if !indices.isEmpty { filter = (indices, !options.categoryAllowlist.isEmpty) }
        }
        return ClassificationHead(
            headIndex: index, labels: labels, classCount: classCount, quantization: quantization,
            calibration: calibration,
            threshold: options.scoreThreshold ?? metadataThreshold ?? -Float.greatestFiniteMagnitude,
            filter: filter, maxResults: options.maxResults > 0 ? options.maxResults : nil)
    }
}
