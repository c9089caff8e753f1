import PureVisionKernels
import PureVisionTFLite

/// DEPTHWISE_CONV_2D on int8 activations: int8 `[1, KH, KW, Cout]` weights with per-channel scales, int32 bias
/// (or uint8 activations and weights with a zero point, TFLite's older scheme),
/// requantized like TFLite's optimized depthwise kernel (`RequantizationRounding.channelBlocksOf8`: channels in
/// whole blocks of 8 break ties of the final shift toward +∞, the rest away from zero; measured against LiteRT 2.3).
enum QuantizedDepthwiseConv2DOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 2...3)
        guard case .depthwiseConv2D(let options) = context.builtinOptions(.depthwiseConv2D) else {
            throw context.failure("options are not DepthwiseConv2DOptions")
        }
        let input = try context.input(0)
        let filter = try context.input(1)
        let type = input.elementType
        try context.expectType(filter, type, "filter")
        try context.expectRank(input, 4, "input")
        try context.expectRank(filter, 4, "filter")
        guard let weights = filter.constant else { throw context.failure("filter '\(filter.name)' must be constant") }
        let (batch, height, width, channels) = (input.shape[0], input.shape[1], input.shape[2], input.shape[3])
        let (kernelHeight, kernelWidth, outChannels) = (filter.shape[1], filter.shape[2], filter.shape[3])
        guard filter.shape[0] == 1, channels > 0, outChannels > 0, outChannels % channels == 0 else {
            throw context.failure("filter \(filter.shape) does not match input \(input.shape)")
        }
        let bias = try QuantizedConv2DOperator.bias(context.optionalInput(2), channels: outChannels, context)
        let rows = try context.padding(
            options.padding, input: height, kernel: kernelHeight, stride: options.strideH, dilation: options.dilationH)
        let cols = try context.padding(
            options.padding, input: width, kernel: kernelWidth, stride: options.strideW, dilation: options.dilationW)
        try context.setOutput(0, shape: [batch, rows.output, cols.output, outChannels], type: type)
        let (inScale, inZero) = try context.quantization(input, "input")
        let (outScale, outZero) = try context.outputQuantization(type)
        let weightZero = try QuantizedConv2DOperator.weightZeroPoint(filter, context)
        let unsigned = type == .uint8
        // TFLite's uint8 depthwise requantizes every channel with its scalar MultiplyByQuantizedMultiplier.
        let rounding: RequantizationRounding =
            context.options.quantizedArithmetic == .xnnpack ? .xnnpack : unsigned ? .double : .channelBlocksOf8
        let multipliers = try QuantizedConv2DOperator.channelMultipliers(
            filter, channels: outChannels, inputScale: inScale, outputScale: outScale, context)
        let range = try context.quantizedRange(
            options.activation, output: context.output(0), scale: outScale, zeroPoint: outZero)
        let geometry = DepthwiseConv2DGeometry(
            batch: batch, inputHeight: height, inputWidth: width, inputChannels: channels,
            outputHeight: rows.output, outputWidth: cols.output, outputChannels: outChannels,
            kernelHeight: kernelHeight, kernelWidth: kernelWidth, strideHeight: options.strideH,
            strideWidth: options.strideW, dilationHeight: options.dilationH, dilationWidth: options.dilationW,
            paddingTop: rows.before, paddingLeft: cols.before, depthMultiplier: outChannels / channels)
        let output = context.output(0)
        let ctx = context
        let biasPointer = bias.map { UnsafePointer($0.pointer.assumingMemoryBound(to: Int32.self)) }
        if context.useReference {
            return context.lowered(reading: [input]) { binder in
                let x = ctx.pointer(input, binder)
                let y = binder.raw(output.index)
                func step<T: QuantizedElement>(_: T.Type) -> ExecutionStep {
                    let filter = UnsafePointer(weights.pointer.assumingMemoryBound(to: T.self))
                    let (x, y) = (UnsafePointer(x.assumingMemoryBound(to: T.self)), y.assumingMemoryBound(to: T.self))
                    return {
                        _ = weights
                        _ = bias
                        Reference.quantizedDepthwiseConv2D(
                            geometry: geometry, input: x, filter: filter, bias: biasPointer, inputZeroPoint: inZero,
                            weightZeroPoint: weightZero, outputZeroPoint: outZero, multipliers: multipliers,
                            range: range, rounding: rounding, output: y)
                    }
                }
                return unsigned ? step(UInt8.self) : step(Int8.self)
            }
        }
        let raw = UnsafeRawPointer(weights.pointer)
        let kernel = QuantizedDepthwiseConv2DKernel(
            geometry: geometry,
            weight: { i in
                unsigned
                    ? Int32(raw.load(fromByteOffset: i, as: UInt8.self)) - weightZero
                    : Int32(raw.load(fromByteOffset: i, as: Int8.self))
            },
            bias: biasPointer, inputZeroPoint: inZero, outputZeroPoint: outZero, multipliers: multipliers,
            range: range, unsigned: unsigned, rounding: rounding, threadCount: context.pool.threadCount,
            generatesMachineCode: context.generatesMachineCode)
        let pool = context.pool
        return context.lowered(reading: [input], scratchBytes: kernel.scratchBytes) { binder in
            let x = UnsafePointer(ctx.pointer(input, binder).assumingMemoryBound(to: Int8.self))
            let y = binder.raw(output.index).assumingMemoryBound(to: Int8.self)
            let scratch = binder.scratch
            return { kernel.run(input: x, output: y, scratch: scratch, pool: pool) }
        }
    }
}
