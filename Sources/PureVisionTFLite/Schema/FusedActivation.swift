/// The activation an operator applies to its output (schema `ActivationFunctionType`, a `byte` enum).
public enum FusedActivation: Sendable, Hashable {
    case none, relu, reluN1To1, relu6, tanh, signBit
    /// A code this reader has no name for.
    case unknown(Int8)

    /// Creates the activation for a schema code.
    public init(rawValue: Int8) {
        switch rawValue {
        case 0: self = .none
        case 1: self = .relu
        case 2: self = .reluN1To1
        case 3: self = .relu6
        case 4: self = .tanh
        case 5: self = .signBit
        default: self = .unknown(rawValue)
        }
    }
}

/// The padding scheme of convolutions and pools (schema `Padding`, a `byte` enum; SAME = 0 is the default).
public enum Padding: Sendable, Hashable {
    case same, valid
    /// A code this reader has no name for.
    case unknown(Int8)

    /// Creates the padding for a schema code.
    public init(rawValue: Int8) {
        switch rawValue {
        case 0: self = .same
        case 1: self = .valid
        default: self = .unknown(rawValue)
        }
    }
}

/// The weight layout of FULLY_CONNECTED (schema `FullyConnectedOptionsWeightsFormat`).
public enum FullyConnectedWeightsFormat: Sendable, Hashable {
    case `default`, shuffled4x16Int8
    /// A code this reader has no name for.
    case unknown(Int8)

    /// Creates the format for a schema code.
    public init(rawValue: Int8) {
        switch rawValue {
        case 0: self = .default
        case 1: self = .shuffled4x16Int8
        default: self = .unknown(rawValue)
        }
    }
}
