import PureVisionKernels
import PureVisionTFLite

/// MAX_POOL_2D and AVERAGE_POOL_2D over NHWC input, with SAME/VALID padding (padded taps are ignored, and the
/// average divides by the in-bounds tap count, as TFLite does) and a fused activation.
enum Pool2DOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 1...1)
        guard case .pool2D(let options) = context.builtinOptions(context.builtin) else {
            throw context.failure("options are not Pool2DOptions")
        }
        let isMax = context.builtin == .maxPool2D
        let input = try context.input(0)
        try context.expectFloat(input, "input")
        try context.expectRank(input, 4, "input")
        let rows = try context.padding(
            options.padding, input: input.shape[1], kernel: options.filterH, stride: options.strideH, dilation: 1)
        let cols = try context.padding(
            options.padding, input: input.shape[2], kernel: options.filterW, stride: options.strideW, dilation: 1)
        let clamp = try context.clamp(options.activation)
        try context.setOutput(0, shape: [input.shape[0], rows.output, cols.output, input.shape[3]])
        let geometry = Pool2DGeometry(
            batch: input.shape[0], inputHeight: input.shape[1], inputWidth: input.shape[2], channels: input.shape[3],
            outputHeight: rows.output, outputWidth: cols.output, filterHeight: options.filterH,
            filterWidth: options.filterW, strideHeight: options.strideH, strideWidth: options.strideW,
            paddingTop: rows.before, paddingLeft: cols.before)
        // A zero-sized input (batch, height, width) has no valid geometry; the kernels require one.
        guard geometry.isValid else {
            throw context.failure("input \(input.shape) gives an empty geometry \(geometry)")
        }
        let output = context.output(0)
        let ctx = context
        let reference = context.useReference
        let pool = context.pool
        return context.lowered(reading: [input]) { binder in
            let x = UnsafePointer(ctx.pointer(input, binder).assumingMemoryBound(to: Float.self))
            let y = binder.floats(output.index)
            switch (isMax, reference) {
            case (true, true): return { Reference.maxPool2D(geometry: geometry, input: x, output: y, clamp: clamp) }
            case (false, true):
                return { Reference.averagePool2D(geometry: geometry, input: x, output: y, clamp: clamp) }
            case (true, false):
                return { Pooling.maxPool2D(geometry: geometry, input: x, output: y, clamp: clamp, pool: pool) }
            case (false, false):
                return { Pooling.averagePool2D(geometry: geometry, input: x, output: y, clamp: clamp, pool: pool) }
            }
        }
    }
}
