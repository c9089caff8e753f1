import PureVisionKernels
import PureVisionTFLite

/// REDUCE_MAX and REDUCE_MIN of float32 over the axes given by a constant int32 tensor (negative axes count from
/// the end; repeats are ignored), keeping the reduced dimensions as 1 when `keep_dims` is set.
enum ReduceExtremumOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        let reduction = try context.reductionOperands(quantized: false)
        let extremum: ReductionExtremum = context.builtin == .reduceMin ? .minimum : .maximum
        let (inputShape, axes) = (reduction.input.shape, reduction.axes)
        try context.setOutput(0, shape: reduction.outputShape)
        // Consecutive axes (the usual case) reduce as [outer, reduced, inner] without per-call work.
        let block: (outer: Int, reduced: Int, inner: Int)? =
            if let first = axes.first, let last = axes.last, last - first + 1 == axes.count {
                (
                    inputShape[..<first].reduce(1, *), inputShape[first...last].reduce(1, *),
                    inputShape[(last + 1)...].reduce(1, *)
                )
            } else { nil }
        let reference = context.useReference
        return context.loweredFloat(reading: reduction.input) { x, y, _ in
            guard !reference, let block else {
                return {
                    Reference.reduceExtremum(extremum, input: x, inputShape: inputShape, axes: axes, output: y)
                }
            }
            return {
                Reduction.extremum(
                    extremum, input: x, outerCount: block.outer, reducedCount: block.reduced, innerCount: block.inner,
                    output: y)
            }
        }
    }
}
