import PureVisionKernels
import PureVisionTFLite

/// CONV_2D: input [N, H, W, Cin], filter OHWI [Cout, Kh, Kw, Cin] (constant), optional bias [Cout];
/// stride, dilation, SAME/VALID padding and a fused activation.
enum Conv2DOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        let conv = try context.convolutionOperands(quantized: false)
        let input = try context.floatConvolutionInput(conv)
        let geometry = conv.conv2DGeometry(reading: input.source, extraPadding: input.extraPadding)
        // A zero-sized input (batch, height, width) has no valid geometry; the kernels require one.
        guard geometry.isValid else {
            throw context.failure("input \(conv.input.shape) gives an empty geometry \(geometry)")
        }
        let (weights, bias, clamp) = (conv.weights, conv.bias, input.clamp)
        if !input.absorbsPad, let prefix = context.broadcastPrefixes[conv.input.index],
            let folded = try lowerFoldingBroadcastPrefix(
                &context, prefix: prefix, geometry: geometry, filter: weights, bias: bias, clamp: clamp)
        {
            return folded
        }
        if context.useReference {
            return context.loweredFloat(reading: input.source) { x, y, _ in
                {
                    Reference.conv2D(
                        geometry: geometry, input: x, filter: weights.floats, bias: bias?.floats, output: y,
                        clamp: clamp)
                }
            }
        }
        let kernel = Conv2DKernel(
            geometry: geometry, filter: weights.floats, bias: bias?.floats, clamp: clamp,
            threadCount: context.pool.threadCount, generatesMachineCode: context.generatesMachineCode)
        return context.loweredFusableConvolution(kernel, input: input, channels: conv.outputChannels)
    }
}
