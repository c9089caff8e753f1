import PureVisionKernels
import PureVisionTFLite

/// DEPTHWISE_CONV_2D: input [N, H, W, Cin], filter [1, Kh, Kw, Cout] (constant) with Cout = Cin · multiplier,
/// optional bias [Cout]; stride, dilation, SAME/VALID padding and a fused activation.
enum DepthwiseConv2DOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        let (conv, input, geometry) = try context.floatConvolution(depthwise: true)
        return context.loweredFloatConvolution(geometry, conv: conv, input: input)
    }
}
