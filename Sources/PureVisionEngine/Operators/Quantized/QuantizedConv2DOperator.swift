import PureVisionKernels
import PureVisionTFLite

/// CONV_2D on int8 activations: int8 OHWI weights with per-channel (or per-tensor) symmetric scales, int32 bias,
/// (or TFLite's older uint8 scheme: uint8 activations and weights, the weights with a zero point),
/// per-channel multipliers `scaleIn · scaleW[c] / scaleOut` (in double, as TFLite), requantized like ruy's x86 kernels
/// behind TFLite's int8 GEMM (`QuantizedMultiplier.applyRuy`), and the fused activation as a clamp on the int8 output.
enum QuantizedConv2DOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 2...3)
        guard case .conv2D(let options) = context.builtinOptions(.conv2D) else {
            throw context.failure("options are not Conv2DOptions")
        }
        let input = try context.input(0)
        let filter = try context.input(1)
        let type = input.elementType
        try context.expectType(filter, type, "filter")
        try context.expectRank(input, 4, "input")
        try context.expectRank(filter, 4, "filter")
        guard let weights = filter.constant else { throw context.failure("filter '\(filter.name)' must be constant") }
        let (batch, height, width, channels) = (input.shape[0], input.shape[1], input.shape[2], input.shape[3])
        let (outChannels, kernelHeight, kernelWidth) = (filter.shape[0], filter.shape[1], filter.shape[2])
        guard filter.shape[3] == channels, channels > 0, outChannels > 0 else {
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
        let multipliers = try channelMultipliers(
            filter, channels: outChannels, inputScale: inScale, outputScale: outScale, context)
        let range = try context.quantizedRange(
            options.activation, output: context.output(0), scale: outScale, zeroPoint: outZero)
        let geometry = Conv2DGeometry(
            batch: batch, inputHeight: height, inputWidth: width, inputChannels: channels,
            outputHeight: rows.output, outputWidth: cols.output, outputChannels: outChannels,
            kernelHeight: kernelHeight, kernelWidth: kernelWidth, strideHeight: options.strideH,
            strideWidth: options.strideW, dilationHeight: options.dilationH, dilationWidth: options.dilationW,
            paddingTop: rows.before, paddingLeft: cols.before)
        return lowerGEMM(
            &context, input: input, geometry: geometry, weights: weights,
            weightZeroPoint: try weightZeroPoint(filter, context), bias: bias, inputZeroPoint: inZero,
            outputZeroPoint: outZero, multipliers: multipliers, range: range)
    }

    /// The shared tail of CONV_2D and FULLY_CONNECTED: the packed kernel, or the reference twin.
    static func lowerGEMM(
        _ context: inout LoweringContext, input: GraphTensor, geometry: Conv2DGeometry, weights: ConstantStorage,
        weightZeroPoint: Int32, bias: ConstantStorage?, inputZeroPoint: Int32, outputZeroPoint: Int32,
        multipliers: [QuantizedMultiplier], range: QuantizedRange
    ) -> LoweredOperator {
        let output = context.output(0)
        let ctx = context
        let unsigned = input.elementType == .uint8
        let rounding = context.gemmRounding
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
                        Reference.quantizedConv2D(
                            geometry: geometry, input: x, filter: filter, bias: biasPointer,
                            inputZeroPoint: inputZeroPoint, weightZeroPoint: weightZeroPoint,
                            outputZeroPoint: outputZeroPoint, multipliers: multipliers, range: range,
                            rounding: rounding,
                            output: y)
                    }
                }
                return unsigned ? step(UInt8.self) : step(Int8.self)
            }
        }
        let pool = context.pool
        let raw = UnsafeRawPointer(weights.pointer)
        let kernel = QuantizedConv2DKernel(
            geometry: geometry,
            weight: { i in
                unsigned
                    ? Int32(raw.load(fromByteOffset: i, as: UInt8.self)) - weightZeroPoint
                    : Int32(raw.load(fromByteOffset: i, as: Int8.self))
            },
            bias: biasPointer, inputZeroPoint: inputZeroPoint, outputZeroPoint: outputZeroPoint,
            multipliers: multipliers, range: range, unsigned: unsigned, rounding: rounding,
            threadCount: pool.threadCount,
            generatesMachineCode: context.generatesMachineCode)
        return context.lowered(reading: [input], scratchBytes: kernel.scratchBytes) { binder in
            let x = UnsafePointer(ctx.pointer(input, binder).assumingMemoryBound(to: Int8.self))
            let y = binder.raw(output.index).assumingMemoryBound(to: Int8.self)
            let scratch = binder.scratch
            return { kernel.run(input: x, output: y, scratch: scratch, pool: pool) }
        }
    }

    /// An int32 constant bias of `channels` elements, or nil.
    static func bias(
        _ bias: GraphTensor?, channels: Int, _ context: LoweringContext
    ) throws(InterpreterError) -> ConstantStorage? {
        guard let bias else { return nil }
        try context.expectType(bias, .int32, "bias")
        guard bias.elementCount == channels else {
            throw context.failure("bias '\(bias.name)' has shape \(bias.shape), expected \(channels) elements")
        }
        guard let storage = bias.constant else { throw context.failure("bias '\(bias.name)' must be constant") }
        return storage
    }

    /// The weights' zero point: 0 for int8 (symmetric), the single per-tensor value for uint8.
    static func weightZeroPoint(_ filter: GraphTensor, _ context: LoweringContext) throws(InterpreterError) -> Int32 {
        guard filter.elementType == .uint8 else { return 0 }
        guard let q = filter.quantization, let zero = q.zeroPoints.first, q.zeroPoints.allSatisfy({ $0 == zero }),
            (0...255).contains(zero)
        else { throw context.failure("uint8 filter '\(filter.name)' needs one zero point in 0…255") }
        return Int32(zero)
    }

    /// One multiplier per output channel, `scaleIn · scaleW[c] / scaleOut` in double (TFLite's
    /// `PopulateConvolutionQuantizationParams`), with the same product and quotient in float as XNNPACK computes
    /// them (its requantization scale); a single weight scale is broadcast.
    static func channelMultipliers(
        _ filter: GraphTensor, channels: Int, inputScale: Float, outputScale: Float, _ context: LoweringContext
    ) throws(InterpreterError) -> [QuantizedMultiplier] {
        guard let q = filter.quantization, q.scales.count == 1 || q.scales.count == channels else {
            throw context.failure("filter '\(filter.name)' needs one scale or one per output channel (\(channels))")
        }
        guard filter.elementType == .uint8 || q.zeroPoints.allSatisfy({ $0 == 0 }) else {
            throw context.failure("filter '\(filter.name)' has non-zero zero points (int8 weights are symmetric)")
        }
        return (0..<channels).map { c in
            let scale = q.scales.count == 1 ? q.scales[0] : q.scales[c]
            return QuantizedMultiplier(
                Double(inputScale) * Double(scale) / Double(outputScale), floatScale: inputScale * scale / outputScale)
        }
    }
}
