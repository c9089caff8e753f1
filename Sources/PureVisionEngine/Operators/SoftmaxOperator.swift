import PureVisionKernels
import PureVisionTFLite

/// SOFTMAX along the last axis: `exp(beta · (x − max)) / Σ`.
enum SoftmaxOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        let (input, beta, outer, axisSize) = try context.softmaxOperands(quantized: false)
        let reference = context.useReference
        let pool = context.pool
        return context.loweredFloat(reading: input) { x, y, _ in
            if reference {
                return { Reference.softmax(input: x, output: y, outerCount: outer, axisSize: axisSize, beta: beta) }
            }
            return { Softmax.run(input: x, output: y, outerCount: outer, axisSize: axisSize, beta: beta, pool: pool) }
        }
    }
}
