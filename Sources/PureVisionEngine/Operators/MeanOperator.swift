import PureVisionKernels
import PureVisionTFLite

/// MEAN and SUM over the axes given by a constant int32 tensor (negative axes count from the end; repeats are
/// ignored), keeping the reduced dimensions as 1 when `keep_dims` is set.
enum MeanOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        let reduction = try context.reductionOperands(quantized: false)
        let isSum = context.builtin == .sum
        let (inputShape, axes) = (reduction.input.shape, reduction.axes)
        try context.setOutput(0, shape: reduction.outputShape)
        let reference = context.useReference
        let pool = context.pool
        return context.loweredFloat(reading: reduction.input) { x, y, _ in
            if isSum { return { Reference.sum(input: x, inputShape: inputShape, axes: axes, output: y) } }
            if reference { return { Reference.mean(input: x, inputShape: inputShape, axes: axes, output: y) } }
            return { Reduction.mean(input: x, inputShape: inputShape, axes: axes, output: y, pool: pool) }
        }
    }
}
