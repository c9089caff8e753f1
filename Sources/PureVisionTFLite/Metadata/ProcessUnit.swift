/// One processing step from model metadata (metadata union `ProcessUnitOptions`).
public enum ProcessUnit: Sendable, Hashable {
    /// `normalized = (value − mean[c]) / std[c]`, per channel (or one value for all channels).
    case normalization(mean: [Float], std: [Float])
    /// Score calibration with the given transformation; `defaultScore` applies to classes without parameters.
    case scoreCalibration(transformation: ScoreTransformation, defaultScore: Float)
    /// Scores below `globalThreshold` are dropped.
    case scoreThresholding(globalThreshold: Float)
    /// A union member this reader does not decode (tokenizers); `typeCode` is its union code.
    case other(typeCode: UInt8)

    init(_ table: FlatTable) throws(ModelFormatError) {
        let (type, options) = try table.union(0, what: "ProcessUnit.options")
        guard let options else {
            self = .other(typeCode: type)
            return
        }
        switch type {
        case 1:
            self = .normalization(
                mean: try options.floats(0, what: "NormalizationOptions.mean") ?? [],
                std: try options.floats(1, what: "NormalizationOptions.std") ?? [])
        case 2:
            self = .scoreCalibration(
                transformation: try options.enumeration(0, what: "ScoreCalibrationOptions.score_transformation"),
                defaultScore: try options.float(1, default: 0, what: "ScoreCalibrationOptions.default_score"))
        case 3:
            self = .scoreThresholding(
                globalThreshold: try options.float(0, default: 0, what: "global_score_threshold"))
        default:
            self = .other(typeCode: type)
        }
    }
}

/// The transformation a score calibration applies before scaling (metadata `ScoreTransformationType`).
public enum ScoreTransformation: Sendable, Hashable, SchemaByteEnum {
    case identity, log, inverseLogistic
    /// A code this reader has no name for.
    case other(Int8)

    static let byCode: [ScoreTransformation] = [.identity, .log, .inverseLogistic]

    static func unnamed(_ code: Int8) -> ScoreTransformation { .other(code) }

    /// Creates the transformation for a schema code.
    public init(rawValue: Int8) { self.init(schemaCode: rawValue) }
}
