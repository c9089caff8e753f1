import PureVisionKernels
import PureVisionTFLite

/// CONV_2D on int8 activations: int8 OHWI weights with per-channel (or per-tensor) symmetric scales, int32 bias,
/// (or TFLite's older uint8 scheme: uint8 activations and weights, the weights with a zero point),
/// per-channel multipliers `scaleIn · scaleW[c] / scaleOut` (in double, as TFLite), requantized like ruy's x86 kernels
/// behind TFLite's int8 GEMM (`QuantizedMultiplier.applyRuy`), and the fused activation as a clamp on the int8 output.
enum QuantizedConv2DOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        let conv = try context.convolutionOperands(quantized: true)
        let quantization = try context.weightedQuantization(
            input: conv.input, filter: conv.filter, channels: conv.outputChannels, outputShape: conv.outputShape,
            activation: conv.window.activation)
        return context.loweredQuantizedConvolution(
            reading: conv.input, geometry: .conv2D(conv.conv2DGeometry(reading: conv.input)), weights: conv.weights,
            bias: conv.bias, quantization: quantization, rounding: context.gemmRounding)
    }
}
