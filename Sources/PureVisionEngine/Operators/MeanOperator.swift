import PureVisionKernels
import PureVisionTFLite

/// MEAN and SUM over the axes given by a constant int32 tensor (negative axes count from the end; repeats are
/// ignored), keeping the reduced dimensions as 1 when `keep_dims` is set.
enum MeanOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 2...2)
        let isSum = context.builtin == .sum
        guard case .reducer(let keepDims) = context.builtinOptions(isSum ? .sum : .mean) else {
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
        let ctx = context
        let reference = context.useReference
        let pool = context.pool
        return context.lowered(reading: [input]) { binder in
            let x = UnsafePointer(ctx.pointer(input, binder).assumingMemoryBound(to: Float.self))
            let y = binder.floats(output.index)
            if isSum { return { Reference.sum(input: x, inputShape: inputShape, axes: axes, output: y) } }
            if reference { return { Reference.mean(input: x, inputShape: inputShape, axes: axes, output: y) } }
            return { Reduction.mean(input: x, inputShape: inputShape, axes: axes, output: y, pool: pool) }
        }
    }
}
