import PureVisionKernels
import PureVisionTFLite

/// TRANSPOSE_CONV (builtin): inputs `[output_shape, weights, input, bias?]` — the output shape a constant int32 [4]
/// `[N, H, W, Cout]`, weights OHWI `[Cout, Kh, Kw, Cin]` (constant), input `[N, Hin, Win, Cin]`, optional bias
/// `[Cout]` (constant). The padding is TFLite's convolution padding with the output as the convolution's input
/// (SAME: total `max(0, (⌈H/s⌉ − 1)·s + Kh − H)`, the smaller half before); products are summed from zero, then
/// the bias and the fused activation apply.
enum TransposeConvOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 3...4)
        guard case .transposeConv(let options) = context.builtinOptions(.transposeConv) else {
            throw context.failure("options are not TransposeConvOptions")
        }
        let shape = try context.constantIntegers(try context.input(0), "output shape")
        let filter = try context.input(1)
        let input = try context.input(2)
        let weights = try context.constantFilter(
            filter, "weights", rank: 4, type: .float32, input: input, inputRank: 4)
        guard shape.count == 4 else { throw context.failure("output shape \(shape) must have 4 values") }
        let (batch, channels) = (input.shape[0], input.shape[3])
        let (outChannels, kernelHeight, kernelWidth) = (filter.shape[0], filter.shape[1], filter.shape[2])
        guard filter.shape[3] == channels, channels > 0, outChannels > 0 else {
            throw context.failure("weights \(filter.shape) do not match input \(input.shape)")
        }
        guard shape[0] == batch, shape[3] == outChannels, shape[1] > 0, shape[2] > 0 else {
            throw context.failure(
                "output shape \(shape) does not match input \(input.shape) and weights \(filter.shape)")
        }
        let bias = try context.constantBias(context.optionalInput(3), type: .float32, channels: outChannels)
        let rows = try context.padding(
            options.padding, input: shape[1], kernel: kernelHeight, stride: options.strideH, dilation: 1)
        let cols = try context.padding(
            options.padding, input: shape[2], kernel: kernelWidth, stride: options.strideW, dilation: 1)
        let clamp = try context.clamp(options.activation)
        try context.setOutput(0, shape: shape)
        let geometry = TransposeConv2DGeometry(
            batch: batch, inputHeight: input.shape[1], inputWidth: input.shape[2], inputChannels: channels,
            outputHeight: shape[1], outputWidth: shape[2], outputChannels: outChannels,
            window: Window2D(
                kernelHeight: kernelHeight, kernelWidth: kernelWidth, strideHeight: options.strideH,
                strideWidth: options.strideW, paddingTop: rows.before, paddingLeft: cols.before))
        return try TransposeConvLowering.lower(
            &context, geometry: geometry, input: input, weights: weights, bias: bias, biasOrder: .last,
            clamp: clamp)
    }
}

/// The kernel choice and binding shared by TRANSPOSE_CONV and MediaPipe's `Convolution2DTransposeBias`.
enum TransposeConvLowering {
    static func lower(
        _ context: inout LoweringContext, geometry: TransposeConv2DGeometry, input: GraphTensor,
        weights: ConstantStorage, bias: ConstantStorage?, biasOrder: TransposeConv2DGeometry.BiasOrder,
        clamp: ClampRange
    ) throws(InterpreterError) -> LoweredOperator {
        guard geometry.isValid else {
            throw context.failure("input \(input.shape) gives an empty geometry \(geometry)")
        }
        if context.useReference {
            return context.loweredFloat(reading: input) { x, y, _ in
                {
                    Reference.transposeConv2D(
                        geometry: geometry, input: x, filter: weights.floats, bias: bias?.floats, output: y,
                        biasOrder: biasOrder, clamp: clamp)
                }
            }
        }
        let kernel = TransposeConv2DKernel(
            geometry: geometry, filter: weights.floats, bias: bias?.floats, biasOrder: biasOrder, clamp: clamp,
            threadCount: context.pool.threadCount, generatesMachineCode: context.generatesMachineCode)
        let (scratchCount, overflow) = kernel.scratchFloatCount.multipliedReportingOverflow(by: 4)
        guard !overflow, scratchCount <= context.options.memoryLimit else {
            throw .limitExceeded("scratch of operator \(context.operatorIndex) (\(context.name)): \(geometry)")
        }
        let pool = context.pool
        var lowered = context.loweredFloat(reading: input, scratchBytes: scratchCount) { x, y, binder in
            let scratch = binder.scratchFloats
            return { kernel.run(input: x, output: y, scratch: scratch, pool: pool) }
        }
        lowered.kernelFamily = kernel.kernelFamily
        return lowered
    }
}
