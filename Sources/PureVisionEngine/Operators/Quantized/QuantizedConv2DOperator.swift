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
        return lowerGEMM(
            &context, input: conv.input, geometry: conv.conv2DGeometry(reading: conv.input), weights: conv.weights,
            bias: conv.bias, quantization: quantization)
    }

    /// The shared tail of CONV_2D and FULLY_CONNECTED: the packed kernel, or the reference twin.
    static func lowerGEMM(
        _ context: inout LoweringContext, input: GraphTensor, geometry: Conv2DGeometry, weights: ConstantStorage,
        bias: ConstantStorage?, quantization q: WeightedQuantization
    ) -> LoweredOperator {
        let unsigned = input.elementType == .uint8
        let rounding = context.gemmRounding
        let biasPointer = bias.map { UnsafePointer($0.pointer.assumingMemoryBound(to: Int32.self)) }
        if context.useReference {
            func step<T: QuantizedElement>(_ x: UnsafePointer<T>, _ y: UnsafeMutablePointer<T>) -> ExecutionStep {
                let filter = UnsafePointer(weights.pointer.assumingMemoryBound(to: T.self))
                return {
                    _ = weights
                    _ = bias
                    Reference.quantizedConv2D(
                        geometry: geometry, input: x, filter: filter, bias: biasPointer,
                        inputZeroPoint: q.inputZeroPoint, weightZeroPoint: q.weightZeroPoint,
                        outputZeroPoint: q.outputZeroPoint, multipliers: q.multipliers, range: q.range,
                        rounding: rounding, output: y)
                }
            }
            return context.loweredQuantized(reading: input, int8: step, uint8: step)
        }
        let kernel = QuantizedConv2DKernel(
            geometry: geometry, weight: q.weight(from: weights, unsigned: unsigned), bias: biasPointer,
            inputZeroPoint: q.inputZeroPoint, outputZeroPoint: q.outputZeroPoint, multipliers: q.multipliers,
            range: q.range, unsigned: unsigned, rounding: rounding, threadCount: context.pool.threadCount,
            generatesMachineCode: context.generatesMachineCode)
        return context.loweredPackedKernel(kernel, reading: input)
    }
}
