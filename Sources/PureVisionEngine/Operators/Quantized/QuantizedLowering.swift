import PureVisionCore
import PureVisionKernels
import PureVisionTFLite

/// The operators whose quantized (int8 / uint8 input) form has its own lowering; the registry picks these when an
/// operator's first input is 8-bit. QUANTIZE is here for every input type.
enum QuantizedOperatorRegistry {
    static let table: [BuiltinOperator: any OperatorLowering.Type] = [
        .conv2D: QuantizedConv2DOperator.self,
        .depthwiseConv2D: QuantizedDepthwiseConv2DOperator.self,
        .fullyConnected: QuantizedFullyConnectedOperator.self,
        .add: QuantizedBinaryOperator.self,
        .sub: QuantizedBinaryOperator.self,
        .mul: QuantizedBinaryOperator.self,
        .mean: QuantizedMeanOperator.self,
        .averagePool2D: QuantizedPool2DOperator.self,
        .maxPool2D: QuantizedPool2DOperator.self,
        .softmax: QuantizedSoftmaxOperator.self,
        .relu: QuantizedActivationOperator.self,
        .relu6: QuantizedActivationOperator.self,
        .reluN1To1: QuantizedActivationOperator.self,
        .logistic: QuantizedActivationOperator.self,
        .tanh: QuantizedActivationOperator.self,
        .hardSwish: QuantizedActivationOperator.self,
        .prelu: QuantizedPReLUOperator.self,
        .pad: QuantizedPadOperator.self,
        .padv2: QuantizedPadOperator.self,
        .concatenation: QuantizedConcatenationOperator.self,
        .resizeBilinear: QuantizedResizeBilinearOperator.self,
        .quantize: QuantizeOperator.self,
    ]
}

extension ElementType {
    /// int8 or uint8: the types of quantized activations.
    var isQuantized8: Bool { self == .int8 || self == .uint8 }
}

extension LoweringContext {
    /// The per-tensor scale and zero point of an 8-bit tensor, or an error when it has none (or several).
    func quantization(_ tensor: GraphTensor, _ role: String) throws(InterpreterError) -> (
        scale: Float, zeroPoint: Int32
    ) {
        guard let q = tensor.quantization, q.scales.count == 1, q.zeroPoints.count == 1, q.scales[0] > 0,
            q.scales[0].isFinite, let zero = Int32(exactly: q.zeroPoints[0])
        else {
            throw failure(
                "\(role) '\(tensor.name)' needs one positive scale and one zero point (per-tensor quantization)")
        }
        let limits: ClosedRange<Int32> = tensor.elementType == .uint8 ? 0...255 : -128...127
        guard limits.contains(zero) else {
            throw failure("\(role) '\(tensor.name)' has zero point \(zero) outside its type")
        }
        return (q.scales[0], zero)
    }

    /// The clamp of an 8-bit output: its type's range narrowed by a fused activation.
    func quantizedRange(
        _ activation: FusedActivation, output: GraphTensor, scale: Float, zeroPoint: Int32
    ) throws(InterpreterError) -> QuantizedRange {
        let clamp = try self.clamp(activation)
        return QuantizedRange(
            isUnsigned: output.elementType == .uint8, scale: scale, zeroPoint: zeroPoint,
            activationLower: clamp.lower, activationUpper: clamp.upper)
    }

    /// The output's declared quantization (the model must give one), after its shape and type are set.
    func outputQuantization(_ type: ElementType) throws(InterpreterError) -> (scale: Float, zeroPoint: Int32) {
        let out = output(0)
        guard out.elementType == type else { throw failure("output '\(out.name)' must be \(type)") }
        return try quantization(out, "output")
    }

    /// The declared element type of output `position` in the model file.
    func declaredOutputType(_ position: Int = 0) -> ElementType { tensors[op.outputs[position]].elementType }
}
