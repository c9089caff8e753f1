import PureVisionKernels
import PureVisionTFLite

/// SOFTMAX along the last axis: `exp(beta · (x − max)) / Σ`.
enum SoftmaxOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 1...1)
        guard case .softmax(let beta) = context.builtinOptions(.softmax) else {
            throw context.failure("options are not SoftmaxOptions")
        }
        let input = try context.input(0)
        try context.expectFloat(input, "input")
        guard let axisSize = input.shape.last, axisSize > 0 else { throw context.failure("input must have rank ≥ 1") }
        try context.setOutput(0, shape: input.shape)
        let outer = input.elementCount / axisSize
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
