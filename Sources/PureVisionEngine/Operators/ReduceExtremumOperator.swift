import PureVisionKernels
import PureVisionTFLite

/// REDUCE_MAX and REDUCE_MIN of float32 over the axes given by a constant int32 tensor (negative axes count from
/// the end; repeats are ignored), keeping the reduced dimensions as 1 when `keep_dims` is set.
enum ReduceExtremumOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 2...2)
        let extremum: ReductionExtremum = context.builtin == .reduceMin ? .minimum : .maximum
        guard case .reducer(let keepDims) = context.builtinOptions(context.builtin) else {
            throw context.failure("options are not ReducerOptions")
        }
        let input = try context.input(0)
        try context.expectFloat(input, "input")
        let rank = input.shape.count
        var axes: [Int] = []
        for axis in try context.constantIntegers(try context.input(1), "axes") {
            guard axis >= -rank, axis < rank else {
                throw context.failure("axis \(axis) out of range for rank \(rank)")
            }
            let normalized = axis < 0 ? axis + rank : axis
            if !axes.contains(normalized) { axes.append(normalized) }
        }
        axes.sort()
        var shape: [Int] = []
        for (axis, extent) in input.shape.enumerated() {
            if axes.contains(axis) {
                if keepDims { shape.append(1) }
            } else {
                shape.append(extent)
            }
        }
        try context.setOutput(0, shape: shape)
        let output = context.output(0)
        let inputShape = input.shape
        // Consecutive axes (the usual case) reduce as [outer, reduced, inner] without per-call work.
        let block: (outer: Int, reduced: Int, inner: Int)? =
            if let first = axes.first, let last = axes.last, last - first + 1 == axes.count {
                (
                    inputShape[..<first].reduce(1, *), inputShape[first...last].reduce(1, *),
                    inputShape[(last + 1)...].reduce(1, *)
                )
            } else { nil }
        let ctx = context
        let reference = context.useReference
        return context.lowered(reading: [input]) { binder in
            let x = UnsafePointer(ctx.pointer(input, binder).assumingMemoryBound(to: Float.self))
            let y = binder.floats(output.index)
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
