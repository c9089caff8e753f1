import PureVisionKernels
import PureVisionTFLite

/// FULLY_CONNECTED: weights [Cout, K] (constant), optional bias [Cout]; the input is read as [batch, K] with
/// batch = elements / K. Output [batch, Cout], or the input's shape with the last dimension replaced when
/// `keep_num_dims` is set.
enum FullyConnectedOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 2...3)
        guard case .fullyConnected(let options) = context.builtinOptions(.fullyConnected) else {
            throw context.failure("options are not FullyConnectedOptions")
        }
        guard options.weightsFormat == .default else {
            throw context.failure("shuffled weight formats are not supported")
        }
        let input = try context.input(0)
        let filter = try context.input(1)
        try context.expectFloat(input, "input")
        try context.expectFloat(filter, "weights")
        try context.expectRank(filter, 2, "weights")
        guard let weights = filter.constant else { throw context.failure("weights '\(filter.name)' must be constant") }
        let (outputSize, inputSize) = (filter.shape[0], filter.shape[1])
        guard inputSize > 0, outputSize > 0, input.elementCount > 0, input.elementCount % inputSize == 0 else {
            throw context.failure(
                "input \(input.shape) cannot be read as rows of \(inputSize) (weights \(filter.shape))")
        }
        let batch = input.elementCount / inputSize
        let biasStorage = try Conv2DOperator.validatedBias(context.optionalInput(2), channels: outputSize, context)
        let clamp = try context.clamp(options.activation)
        if options.keepNumDims, input.shape.last == inputSize {
            try context.setOutput(0, shape: input.shape.dropLast() + [outputSize])
        } else {
            try context.setOutput(0, shape: [batch, outputSize])
        }
        let output = context.output(0)
        let ctx = context
        if context.useReference {
            return context.lowered(reading: [input]) { binder in
                let x = ctx.pointer(input, binder).assumingMemoryBound(to: Float.self)
                let y = binder.floats(output.index)
                return {
                    Reference.fullyConnected(
                        batch: batch, inputSize: inputSize, outputSize: outputSize, input: x, weights: weights.floats,
                        bias: biasStorage?.floats, output: y, clamp: clamp)
                }
            }
        }
        let kernel = FullyConnectedKernel(
            batch: batch, inputSize: inputSize, outputSize: outputSize, weights: weights.floats,
            bias: biasStorage?.floats, clamp: clamp, generatesMachineCode: context.generatesMachineCode,
            threadCount: context.pool.threadCount)
        let pool = context.pool
        return context.lowered(reading: [input]) { binder in
            let x = ctx.pointer(input, binder).assumingMemoryBound(to: Float.self)
            let y = binder.floats(output.index)
            return { kernel.run(input: x, output: y, pool: pool) }
        }
    }
}
