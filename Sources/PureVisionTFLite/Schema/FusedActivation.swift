/// The activation an operator applies to its output (schema `ActivationFunctionType`, a `byte` enum).
public enum FusedActivation: Sendable, Hashable, SchemaByteEnum {
    case none, relu, reluN1To1, relu6, tanh, signBit
    /// A code this reader has no name for.
    case unknown(Int8)

    static let byCode: [FusedActivation] = [.none, .relu, .reluN1To1, .relu6, .tanh, .signBit]

    static func unnamed(_ code: Int8) -> FusedActivation { .unknown(code) }

    /// Creates the activation for a schema code.
    public init(rawValue: Int8) { self.init(schemaCode: rawValue) }
}

/// The padding scheme of convolutions and pools (schema `Padding`, a `byte` enum; SAME = 0 is the default).
public enum Padding: Sendable, Hashable, SchemaByteEnum {
    case same, valid
    /// A code this reader has no name for.
    case unknown(Int8)

    static let byCode: [Padding] = [.same, .valid]

    static func unnamed(_ code: Int8) -> Padding { .unknown(code) }

    /// Creates the padding for a schema code.
    public init(rawValue: Int8) { self.init(schemaCode: rawValue) }
}

/// The weight layout of FULLY_CONNECTED (schema `FullyConnectedOptionsWeightsFormat`).
public enum FullyConnectedWeightsFormat: Sendable, Hashable, SchemaByteEnum {
    case `default`, shuffled4x16Int8
    /// A code this reader has no name for.
    case unknown(Int8)

    static let byCode: [FullyConnectedWeightsFormat] = [.default, .shuffled4x16Int8]

    static func unnamed(_ code: Int8) -> FullyConnectedWeightsFormat { .unknown(code) }

    /// Creates the format for a schema code.
    public init(rawValue: Int8) { self.init(schemaCode: rawValue) }
}
