import PureVisionKernels
import PureVisionTFLite

/// CONV_2D: input [N, H, W, Cin], filter OHWI [Cout, Kh, Kw, Cin] (constant), optional bias [Cout];
/// stride, dilation, SAME/VALID padding and a fused activation.
enum Conv2DOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 2...3)
        guard case .conv2D(let options) = context.builtinOptions(.conv2D) else {
            throw context.failure("options are not Conv2DOptions")
        }
        let paddedInput = try context.input(0)
        let filter = try context.input(1)
        let bias = context.optionalInput(2)
        try context.expectFloat(paddedInput, "input")
        try context.expectFloat(filter, "filter")
        try context.expectRank(paddedInput, 4, "input")
        try context.expectRank(filter, 4, "filter")
        guard let weights = filter.constant else {
            throw context.failure("filter '\(filter.name)' must be constant (run-time weights are not supported)")
        }
        let (batch, height, width, channels) = (
            paddedInput.shape[0], paddedInput.shape[1], paddedInput.shape[2], paddedInput.shape[3]
        )
        let (outChannels, kernelHeight, kernelWidth) = (filter.shape[0], filter.shape[1], filter.shape[2])
        guard filter.shape[3] == channels, channels > 0, outChannels > 0 else {
            throw context.failure("filter \(filter.shape) does not match input \(paddedInput.shape)")
        }
        let biasStorage = try validatedBias(bias, channels: outChannels, context)
        let rows = try context.padding(
            options.padding, input: height, kernel: kernelHeight, stride: options.strideH, dilation: options.dilationH)
        let cols = try context.padding(
            options.padding, input: width, kernel: kernelWidth, stride: options.strideW, dilation: options.dilationW)
        // A PAD of zero rows and columns in front is applied here as explicit padding; the PAD's input is read.
        let absorbed = context.absorbedPadding(
            of: paddedInput, padding: options.padding, kernel: (kernelHeight, kernelWidth),
            dilation: (options.dilationH, options.dilationW))
        let input = absorbed?.source ?? paddedInput
        let clamp = try context.clamp(options.activation)
        try context.setOutput(0, shape: [batch, rows.output, cols.output, outChannels])

        let geometry = Conv2DGeometry(
            batch: batch, inputHeight: input.shape[1], inputWidth: input.shape[2], inputChannels: channels,
            outputHeight: rows.output, outputWidth: cols.output, outputChannels: outChannels,
            kernelHeight: kernelHeight, kernelWidth: kernelWidth, strideHeight: options.strideH,
            strideWidth: options.strideW, dilationHeight: options.dilationH, dilationWidth: options.dilationW,
            paddingTop: rows.before + (absorbed?.padding.top ?? 0),
            paddingLeft: cols.before + (absorbed?.padding.left ?? 0))
        // A zero-sized input (batch, height, width) has no valid geometry; the kernels require one.
        guard geometry.isValid else {
            throw context.failure("input \(paddedInput.shape) gives an empty geometry \(geometry)")
        }
        let output = context.output(0)
        if absorbed == nil, let prefix = context.broadcastPrefixes[paddedInput.index],
            let folded = try lowerFoldingBroadcastPrefix(
                &context, prefix: prefix, geometry: geometry, filter: weights, bias: biasStorage, clamp: clamp)
        {
            return folded
        }
        let ctx = context
        if context.useReference {
            return context.lowered(reading: [input]) { binder in
                let x = ctx.pointer(input, binder).assumingMemoryBound(to: Float.self)
                let y = binder.floats(output.index)
                return {
                    Reference.conv2D(
                        geometry: geometry, input: x, filter: weights.floats, bias: biasStorage?.floats, output: y,
                        clamp: clamp)
                }
            }
        }
        let kernel = Conv2DKernel(
            geometry: geometry, filter: weights.floats, bias: biasStorage?.floats, clamp: clamp,
            threadCount: context.pool.threadCount, generatesMachineCode: context.generatesMachineCode)
        let pool = context.pool
        var lowered = context.lowered(reading: [input], scratchBytes: kernel.scratchFloatCount * 4) { binder in
            let x = ctx.pointer(input, binder).assumingMemoryBound(to: Float.self)
            let y = binder.floats(output.index)
            let scratch = binder.scratchFloats
            return { kernel.run(input: x, output: y, scratch: scratch, pool: pool) }
        }
        lowered.epilogueFusion = EpilogueFusion(channels: outChannels) { epilogue, residual, fusedOutput in
            let fused = kernel.withEpilogue(epilogue)
            return { binder in
                let x = ctx.pointer(input, binder).assumingMemoryBound(to: Float.self)
                let y = binder.floats(fusedOutput)
                let r = residual.map { UnsafePointer(binder.floats($0)) }
                let scratch = binder.scratchFloats
                return { fused.run(input: x, output: y, residual: r, scratch: scratch, pool: pool) }
            }
        }
        if absorbed != nil { lowered.name = "PAD+" + lowered.name }
        return lowered
    }

    /// A bias must be a constant float32 vector of `channels` elements.
    static func validatedBias(
        _ bias: GraphTensor?, channels: Int, _ context: LoweringContext
    ) throws(InterpreterError) -> ConstantStorage? {
        guard let bias else { return nil }
        try context.expectFloat(bias, "bias")
        guard bias.elementCount == channels else {
            throw context.failure("bias '\(bias.name)' has shape \(bias.shape), expected \(channels) elements")
        }
        guard let storage = bias.constant else { throw context.failure("bias '\(bias.name)' must be constant") }
        return storage
    }
}
