import PureVisionKernels
import PureVisionTFLite

/// DEPTHWISE_CONV_2D on int8 activations: int8 `[1, KH, KW, Cout]` weights with per-channel scales, int32 bias
/// (or uint8 activations and weights with a zero point, TFLite's older scheme),
/// requantized like TFLite's optimized depthwise kernel (`RequantizationRounding.channelBlocksOf8`: channels in
/// whole blocks of 8 break ties of the final shift toward +∞, the rest away from zero; measured against LiteRT 2.3).
enum QuantizedDepthwiseConv2DOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        let conv = try context.convolutionOperands(quantized: true)
        let (input, weights, bias) = (conv.input, conv.weights, conv.bias)
        let q = try context.weightedQuantization(
            input: input, filter: conv.filter, channels: conv.outputChannels, outputShape: conv.outputShape,
            activation: conv.window.activation)
        let unsigned = input.elementType == .uint8
        // TFLite's uint8 depthwise requantizes every channel with its scalar MultiplyByQuantizedMultiplier.
        let rounding: RequantizationRounding =
            context.options.quantizedArithmetic == .xnnpack ? .xnnpack : unsigned ? .double : .channelBlocksOf8
        return context.loweredQuantizedConvolution(
            reading: input, geometry: .depthwise(conv.depthwiseGeometry(reading: input)), weights: weights, bias: bias,
            quantization: q, rounding: rounding)
    }
}
