import PureVisionKernels
import PureVisionTFLite

/// FULLY_CONNECTED on int8 activations: int8 weights [Cout, K] (per-tensor or per-channel scales), int32 bias; run
/// as a 1×1 convolution over `batch` rows with the int8 GEMM (ruy's requantization, as TFLite).
enum QuantizedFullyConnectedOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        let fc = try context.fullyConnectedOperands(quantized: true)
        let quantization = try context.weightedQuantization(
            input: fc.input, filter: fc.filter, channels: fc.outputSize, outputShape: fc.outputShape,
            activation: fc.activation)
        let geometry = Conv2DGeometry(
            batch: fc.batch, inputHeight: 1, inputWidth: 1, inputChannels: fc.inputSize, outputHeight: 1,
            outputWidth: 1, outputChannels: fc.outputSize,
            window: .pointwise)
        return context.loweredQuantizedConvolution(
            reading: fc.input, geometry: .conv2D(geometry), weights: fc.weights, bias: fc.bias,
            quantization: quantization, rounding: context.gemmRounding)
    }
}
