import PureVisionKernels
import PureVisionTFLite

/// FULLY_CONNECTED: weights [Cout, K] (constant), optional bias [Cout]; the input is read as [batch, K] with
/// batch = elements / K. Output [batch, Cout], or the input's shape with the last dimension replaced when
/// `keep_num_dims` is set.
enum FullyConnectedOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        let fc = try context.fullyConnectedOperands(quantized: false)
        let (batch, inputSize, outputSize) = (fc.batch, fc.inputSize, fc.outputSize)
        let (weights, bias) = (fc.weights, fc.bias)
        let clamp = try context.clamp(fc.activation)
        try context.setOutput(0, shape: fc.outputShape)
        if context.useReference {
            return context.loweredFloat(reading: fc.input) { x, y, _ in
                {
                    Reference.fullyConnected(
                        batch: batch, inputSize: inputSize, outputSize: outputSize, input: x, weights: weights.floats,
                        bias: bias?.floats, output: y, clamp: clamp)
                }
            }
        }
        let kernel = FullyConnectedKernel(
            batch: batch, inputSize: inputSize, outputSize: outputSize, weights: weights.floats, bias: bias?.floats,
            clamp: clamp, generatesMachineCode: context.generatesMachineCode, threadCount: context.pool.threadCount)
        let pool = context.pool
        var lowered = context.loweredFloat(reading: fc.input) { x, y, _ in
            { kernel.run(input: x, output: y, pool: pool) }
        }
        lowered.kernelFamily = kernel.kernelFamily
        return lowered
    }
}
