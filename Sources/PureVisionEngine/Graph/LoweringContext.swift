import PureVisionCore
import PureVisionKernels
import PureVisionTFLite

/// Everything an operator's lowering needs: the operator, the graph's tensors as inferred so far, the options,
/// and helpers that turn problems into errors carrying the operator's index and name.
struct LoweringContext {
    let operatorIndex: Int
    let builtin: BuiltinOperator
    let op: Operator
    let options: InterpreterOptions
    let pool: ThreadPool
    /// The graph's tensors; a lowering sets the shape and type of the operator's outputs here.
    var tensors: [GraphTensor]
    /// The custom operator's name when `builtin` is `.custom`.
    var customName: String? = nil
    /// PADs a convolution reading their output may apply itself, by output tensor (see `SpatialPadAbsorption`).
    var absorbablePads: [Int: SpatialZeroPadding] = [:]
    /// Concatenations a 1×1 convolution reading them may fold, by output tensor (see `BroadcastPrefixFolding`).
    var broadcastPrefixes: [Int: BroadcastPrefix] = [:]

    /// The operator's TFLite name, e.g. `CONV_2D`, or a custom operator's own name.
    var name: String { builtin == .custom ? customName ?? builtin.name : builtin.name }

    var useReference: Bool { options.kernelMode == .reference }

    /// Whether an optimized kernel should generate its machine code (the option is on and the CPU can run it).
    var generatesMachineCode: Bool {
        !useReference && options.generatesMachineCode && HostCPU.supportsGeneratedAVX2
    }

    /// The requantization of CONV_2D / FULLY_CONNECTED results: ruy's (LiteRT) or XNNPACK's.
    var gemmRounding: RequantizationRounding { options.quantizedArithmetic == .xnnpack ? .xnnpack : .ruy }

    /// An error about this operator.
    func failure(_ reason: String) -> InterpreterError {
        .invalidOperator(operatorIndex: operatorIndex, name: name, reason: reason)
    }

    /// Checks the number of inputs (present or absent) and outputs.
    func expectArity(inputs: ClosedRange<Int>, outputs: Int = 1) throws(InterpreterError) {
        guard inputs.contains(op.inputs.count) else {
            throw failure("expects \(inputs.lowerBound)…\(inputs.upperBound) inputs, has \(op.inputs.count)")
        }
        guard op.outputs.count == outputs else {
            throw failure("expects \(outputs) output(s), has \(op.outputs.count)")
        }
    }

    /// The `position`-th input, which must be present.
    func input(_ position: Int) throws(InterpreterError) -> GraphTensor {
        guard position < op.inputs.count, op.inputs[position] >= 0 else {
            throw failure("input \(position) is missing")
        }
        return tensors[op.inputs[position]]
    }

    /// The `position`-th input, or nil when it is absent (index −1 or beyond the list).
    func optionalInput(_ position: Int) -> GraphTensor? {
        guard position < op.inputs.count, op.inputs[position] >= 0 else { return nil }
        return tensors[op.inputs[position]]
    }

    /// The `position`-th output.
    func output(_ position: Int) -> GraphTensor { tensors[op.outputs[position]] }

    /// Requires a float32 tensor.
    func expectFloat(_ tensor: GraphTensor, _ role: String) throws(InterpreterError) {
        try expectType(tensor, .float32, role)
    }

    /// Requires a tensor of `type`.
    func expectType(_ tensor: GraphTensor, _ type: ElementType, _ role: String) throws(InterpreterError) {
        guard tensor.elementType == type else {
            throw .unsupportedTensorType(
                tensorIndex: tensor.index, tensorName: tensor.name, type: tensor.elementType.rawValue,
                context: "\(role) of operator \(operatorIndex) (\(name)) must be \(type)")
        }
    }

    /// Requires a rank.
    func expectRank(_ tensor: GraphTensor, _ rank: Int, _ role: String) throws(InterpreterError) {
        guard tensor.shape.count == rank else {
            throw failure("\(role) '\(tensor.name)' must have rank \(rank), has shape \(tensor.shape)")
        }
    }

    /// The integer values of a constant tensor (int32 or int64), e.g. a shape, axes or paddings.
    func constantIntegers(_ tensor: GraphTensor, _ role: String) throws(InterpreterError) -> [Int] {
        guard tensor.isConstant else {
            throw failure("\(role) '\(tensor.name)' must be a constant (dynamic shapes are not supported)")
        }
        if let values = tensor.constantIntegers { return values }
        switch tensor.elementType {
        case .int32, .int64:
            throw failure("\(role) '\(tensor.name)' holds fewer bytes than its shape \(tensor.shape) needs")
        default:
            throw .unsupportedTensorType(
                tensorIndex: tensor.index, tensorName: tensor.name, type: tensor.elementType.rawValue,
                context: "\(role) of operator \(operatorIndex) (\(name)) must be int32 or int64")
        }
    }

    /// Sets the inferred shape and type of output `position`, checking it against a static shape the model
    /// declares (models may leave shapes empty; a declared shape that disagrees is an error).
    mutating func setOutput(_ position: Int, shape: [Int], type: ElementType = .float32) throws(InterpreterError) {
        guard position < op.outputs.count else { throw failure("output \(position) is missing") }
        let index = op.outputs[position]
        let declared = tensors[index].shape
        if !declared.isEmpty, declared != shape, declared.reduce(1, *) != 0 {
            throw failure(
                "output '\(tensors[index].name)' is declared \(declared) but the inputs give \(shape)")
        }
        guard shape.allSatisfy({ $0 >= 0 }), let count = TensorShape(shape).checkedElementCount,
            count <= options.memoryLimit / type.byteWidth
        else {
            throw .limitExceeded("output '\(tensors[index].name)' of operator \(operatorIndex) has shape \(shape)")
        }
        guard !shape.contains(0) else {
            throw .emptyTensor(
                operatorIndex: operatorIndex, name: name, tensorIndex: index, tensorName: tensors[index].name,
                shape: TensorShape(shape))
        }
        guard shape.count <= InterpreterLimits.maximumRank else {
            throw failure("output rank \(shape.count) exceeds \(InterpreterLimits.maximumRank)")
        }
        tensors[index].shape = shape
        tensors[index].elementType = type
    }

    /// A lowered operator reading `inputs` (constants are dropped from the run-time list) and writing all outputs.
    func lowered(
        reading inputs: [GraphTensor], scratchBytes: Int = 0, bind: @escaping (TensorBinder) -> ExecutionStep
    ) -> LoweredOperator {
        LoweredOperator(
            operatorIndex: operatorIndex, name: name, inputs: inputs.filter { !$0.isConstant }.map(\.index),
            outputShapes: op.outputs.map { tensors[$0].shape }, outputs: op.outputs, scratchBytes: scratchBytes,
            bind: bind)
    }
}

extension FusedActivation {
    /// The clamp that applies this fused activation, or nil when the engine does not support it.
    var clampRange: ClampRange? {
        switch self {
        case .none: ClampRange.none
        case .relu: .relu
        case .relu6: .relu6
        case .reluN1To1: .reluMinus1To1
        default: nil
        }
    }
}

extension LoweringContext {
    /// The clamp of a fused activation, or an error naming it.
    func clamp(_ activation: FusedActivation) throws(InterpreterError) -> ClampRange {
        guard let range = activation.clampRange else { throw failure("fused activation \(activation) not supported") }
        return range
    }

    /// TFLite's padding rule: output size and the padding before the first element.
    func padding(
        _ padding: Padding, input: Int, kernel: Int, stride: Int, dilation: Int
    ) throws(InterpreterError) -> (output: Int, before: Int) {
        guard stride > 0, dilation > 0, kernel > 0 else {
            throw failure("stride \(stride), dilation \(dilation) and kernel size \(kernel) must be positive")
        }
        let effectiveKernel = (kernel - 1) * dilation + 1
        let output: Int
        switch padding {
        case .valid: output = (input - effectiveKernel + stride) / stride
        default: output = (input + stride - 1) / stride
        }
        guard output > 0 else {
            throw failure("input extent \(input) is smaller than the effective kernel \(effectiveKernel)")
        }
        let total = max(0, (output - 1) * stride + effectiveKernel - input)
        return (output, padding == .valid ? 0 : total / 2)
    }
}
