import PureVisionCore
import PureVisionTFLite

/// Why a model could not be loaded or run. Every case names where the problem is: the operator index and its
/// TFLite name, the tensor's index and name, the shapes involved.
public enum InterpreterError: Error, Equatable, CustomStringConvertible {
    /// The file is not a well-formed TFLite flatbuffer.
    case modelFormat(ModelFormatError)
    /// The model has no subgraph, or its main subgraph is unusable.
    case invalidModel(String)
    /// The model uses an operator the engine does not implement.
    case unsupportedOperator(operatorIndex: Int, name: String, customName: String?)
    /// An operator's inputs, outputs or options are inconsistent or outside what the engine supports.
    case invalidOperator(operatorIndex: Int, name: String, reason: String)
    /// An operator reads or writes a tensor without elements (a dimension of 0). No operator runs on empty tensors:
    /// every one is refused at load, so kernels never see a zero extent.
    case emptyTensor(operatorIndex: Int, name: String, tensorIndex: Int, tensorName: String, shape: TensorShape)
    /// A tensor has a type the engine cannot hold where it is used.
    case unsupportedTensorType(tensorIndex: Int, tensorName: String, type: String, context: String)
    /// A tensor, or the activation arena plus kernel scratch, needs more than `InterpreterOptions.memoryLimit`
    /// bytes, or a tensor's rank exceeds `InterpreterLimits.maximumRank`; thrown at load, before allocating.
    case limitExceeded(String)
    /// `run` got the wrong number of inputs.
    case inputCountMismatch(expected: Int, actual: Int)
    /// An input's shape or element type differs from the model's input tensor.
    case inputMismatch(
        index: Int, name: String, expectedShape: TensorShape, expectedType: ElementType, actualShape: TensorShape,
        actualType: ElementType)
    /// An index passed to an accessor is out of range.
    case indexOutOfRange(what: String, index: Int, count: Int)

    public var description: String {
        switch self {
        case .modelFormat(let error): "malformed model: \(error)"
        case .invalidModel(let reason): "invalid model: \(reason)"
        case .unsupportedOperator(let index, let name, let custom):
            if let custom {
                "unsupported custom operator '\(custom)' (operator \(index), \(name))"
            } else {
                "unsupported operator \(name) (operator \(index))"
            }
        case .invalidOperator(let index, let name, let reason): "operator \(index) (\(name)): \(reason)"
        case .emptyTensor(let index, let name, let tensorIndex, let tensorName, let shape):
            "operator \(index) (\(name)): tensor \(tensorIndex) '\(tensorName)' of shape \(shape) has no elements"
        case .unsupportedTensorType(let index, let name, let type, let context):
            "tensor \(index) '\(name)' has unsupported type \(type) (\(context))"
        case .limitExceeded(let what): "limit exceeded: \(what)"
        case .inputCountMismatch(let expected, let actual): "the model takes \(expected) input(s), got \(actual)"
        case .inputMismatch(let index, let name, let eShape, let eType, let aShape, let aType):
            "input \(index) '\(name)' must be \(eType) \(eShape), got \(aType) \(aShape)"
        case .indexOutOfRange(let what, let index, let count): "\(what) index \(index) out of range 0..<\(count)"
        }
    }
}
