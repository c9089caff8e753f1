import PureVisionKernels
import PureVisionTFLite

/// AVERAGE_POOL_2D and MAX_POOL_2D on 8-bit NHWC tensors (input and output share their quantization in TFLite);
/// averages round half away from zero; fused activations clamp in the quantized domain.
enum QuantizedPool2DOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 1...1)
        guard case .pool2D(let options) = context.builtinOptions(context.builtin) else {
            throw context.failure("options are not Pool2DOptions")
        }
        let isMax = context.builtin == .maxPool2D
        let input = try context.input(0)
        let type = input.elementType
        try context.expectRank(input, 4, "input")
        let rows = try context.padding(
            options.padding, input: input.shape[1], kernel: options.filterH, stride: options.strideH, dilation: 1)
        let cols = try context.padding(
            options.padding, input: input.shape[2], kernel: options.filterW, stride: options.strideW, dilation: 1)
        try context.setOutput(0, shape: [input.shape[0], rows.output, cols.output, input.shape[3]], type: type)
        let (outScale, outZero) = try context.outputQuantization(type)
        let range = try context.quantizedRange(
            options.activation, output: context.output(0), scale: outScale, zeroPoint: outZero)
        let geometry = Pool2DGeometry(
            batch: input.shape[0], inputHeight: input.shape[1], inputWidth: input.shape[2], channels: input.shape[3],
            outputHeight: rows.output, outputWidth: cols.output, filterHeight: options.filterH,
            filterWidth: options.filterW, strideHeight: options.strideH, strideWidth: options.strideW,
            paddingTop: rows.before, paddingLeft: cols.before)
        let output = context.output(0)
        let ctx = context
        let pool = context.pool
        return context.lowered(reading: [input]) { binder in
            let x = ctx.pointer(input, binder)
            let y = binder.raw(output.index)
            func step<T: QuantizedElement>(_: T.Type) -> ExecutionStep {
                let (x, y) = (UnsafePointer(x.assumingMemoryBound(to: T.self)), y.assumingMemoryBound(to: T.self))
                switch (isMax, ctx.useReference) {
                case (true, true):
                    return { Reference.quantizedMaxPool(geometry: geometry, input: x, output: y, range: range) }
                case (false, true):
                    return { Reference.quantizedAveragePool(geometry: geometry, input: x, output: y, range: range) }
                case (true, false):
                    return { Quantized.maxPool(geometry: geometry, input: x, output: y, range: range, pool: pool) }
                case (false, false):
                    return { Quantized.averagePool(geometry: geometry, input: x, output: y, range: range, pool: pool) }
                }
            }
            return type == .uint8 ? step(UInt8.self) : step(Int8.self)
        }
    }
}
