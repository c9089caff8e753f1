import PureVisionKernels
import PureVisionTFLite

/// DEPTHWISE_CONV_2D: input [N, H, W, Cin], filter [1, Kh, Kw, Cout] (constant) with Cout = Cin · multiplier,
/// optional bias [Cout]; stride, dilation, SAME/VALID padding and a fused activation.
enum DepthwiseConv2DOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        let conv = try context.convolutionOperands(quantized: false)
        let input = try context.floatConvolutionInput(conv)
        let geometry = conv.depthwiseGeometry(reading: input.source, extraPadding: input.extraPadding)
        // A zero-sized input (batch, height, width) has no valid geometry; the kernels require one.
        guard geometry.isValid else {
            throw context.failure("input \(conv.input.shape) gives an empty geometry \(geometry)")
        }
        let (weights, bias, clamp) = (conv.weights, conv.bias, input.clamp)
        if context.useReference {
            return context.loweredFloat(reading: input.source) { x, y, _ in
                {
                    Reference.depthwiseConv2D(
                        geometry: geometry, input: x, filter: weights.floats, bias: bias?.floats, output: y,
                        clamp: clamp)
                }
            }
        }
        let kernel = DepthwiseConv2DKernel(
            geometry: geometry, filter: weights.floats, bias: bias?.floats, clamp: clamp,
            generatesMachineCode: context.generatesMachineCode)
        return context.loweredFusableConvolution(kernel, input: input, channels: conv.outputChannels)
    }
}
