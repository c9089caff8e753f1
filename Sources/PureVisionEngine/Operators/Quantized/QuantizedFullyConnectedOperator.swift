import PureVisionKernels
import PureVisionTFLite

/// FULLY_CONNECTED on int8 activations: int8 weights [Cout, K] (per-tensor or per-channel scales), int32 bias; run
/// as a 1×1 convolution over `batch` rows with the int8 GEMM (ruy's requantization, as TFLite).
enum QuantizedFullyConnectedOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 2...3)
        guard case .fullyConnected(let options) = context.builtinOptions(.fullyConnected) else {
            throw context.failure("options are not FullyConnectedOptions")
        }
        guard options.weightsFormat == .default else {
            throw context.failure("shuffled weight formats are not supported")
        }
        let input = try context.input(0)
        let filter = try context.input(1)
        let type = input.elementType
        try context.expectType(filter, type, "weights")
        try context.expectRank(filter, 2, "weights")
        guard let weights = filter.constant else { throw context.failure("weights '\(filter.name)' must be constant") }
        let (outputSize, inputSize) = (filter.shape[0], filter.shape[1])
        guard inputSize > 0, outputSize > 0, input.elementCount % inputSize == 0 else {
            throw context.failure(
                "input \(input.shape) cannot be read as rows of \(inputSize) (weights \(filter.shape))")
        }
        let batch = input.elementCount / inputSize
        let bias = try QuantizedConv2DOperator.bias(context.optionalInput(2), channels: outputSize, context)
        if options.keepNumDims, input.shape.last == inputSize {
            try context.setOutput(0, shape: input.shape.dropLast() + [outputSize], type: type)
        } else {
            try context.setOutput(0, shape: [batch, outputSize], type: type)
        }
        let (inScale, inZero) = try context.quantization(input, "input")
        let (outScale, outZero) = try context.outputQuantization(type)
        let multipliers = try QuantizedConv2DOperator.channelMultipliers(
            filter, channels: outputSize, inputScale: inScale, outputScale: outScale, context)
        let range = try context.quantizedRange(
            options.activation, output: context.output(0), scale: outScale, zeroPoint: outZero)
        let geometry = Conv2DGeometry(
            batch: batch, inputHeight: 1, inputWidth: 1, inputChannels: inputSize, outputHeight: 1, outputWidth: 1,
            outputChannels: outputSize, kernelHeight: 1, kernelWidth: 1, strideHeight: 1, strideWidth: 1,
            dilationHeight: 1, dilationWidth: 1, paddingTop: 0, paddingLeft: 0)
        return QuantizedConv2DOperator.lowerGEMM(
            &context, input: input, geometry: geometry, weights: weights,
            weightZeroPoint: try QuantizedConv2DOperator.weightZeroPoint(filter, context), bias: bias,
            inputZeroPoint: inZero,
            outputZeroPoint: outZero, multipliers: multipliers, range: range)
    }
}
