import PureVisionKernels
import PureVisionTFLite

/// CONV_2D: input [N, H, W, Cin], filter OHWI [Cout, Kh, Kw, Cin] (constant), optional bias [Cout];
/// stride, dilation, SAME/VALID padding and a fused activation.
enum Conv2DOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        let (conv, input, geometry) = try context.floatConvolution(depthwise: false)
        if case .conv2D(let conv2D) = geometry, !input.absorbsPad,
            let prefix = context.broadcastPrefixes[conv.input.index],
            let folded = try lowerFoldingBroadcastPrefix(
                &context, prefix: prefix, geometry: conv2D, filter: conv.weights, bias: conv.bias, clamp: input.clamp)
        {
            return folded
        }
        return context.loweredFloatConvolution(geometry, conv: conv, input: input)
    }
}
