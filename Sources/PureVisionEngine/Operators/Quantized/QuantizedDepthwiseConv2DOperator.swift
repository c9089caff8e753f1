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
        let geometry = conv.depthwiseGeometry(reading: input)
        let biasPointer = bias.map { UnsafePointer($0.pointer.assumingMemoryBound(to: Int32.self)) }
        if context.useReference {
            func step<T: QuantizedElement>(_ x: UnsafePointer<T>, _ y: UnsafeMutablePointer<T>) -> ExecutionStep {
                let filter = UnsafePointer(weights.pointer.assumingMemoryBound(to: T.self))
                return {
                    _ = weights
                    _ = bias
                    Reference.quantizedDepthwiseConv2D(
                        geometry: geometry, input: x, filter: filter, bias: biasPointer,
                        inputZeroPoint: q.inputZeroPoint, weightZeroPoint: q.weightZeroPoint,
                        outputZeroPoint: q.outputZeroPoint, multipliers: q.multipliers, range: q.range,
                        rounding: rounding, output: y)
                }
            }
            return context.loweredQuantized(reading: input, int8: step, uint8: step)
        }
        let kernel = QuantizedDepthwiseConv2DKernel(
            geometry: geometry, weight: q.weight(from: weights, unsigned: unsigned), bias: biasPointer,
            inputZeroPoint: q.inputZeroPoint, outputZeroPoint: q.outputZeroPoint, multipliers: q.multipliers,
            range: q.range, unsigned: unsigned, rounding: rounding, threadCount: context.pool.threadCount,
            generatesMachineCode: context.generatesMachineCode)
        return context.loweredPackedKernel(kernel, reading: input)
    }
}
