import PureVisionKernels
import PureVisionTFLite

/// Element-wise activations and math functions: RELU, RELU6, RELU_N1_TO_1, LOGISTIC, TANH, HARD_SWISH, LEAKY_RELU,
/// NEG, SQRT, RSQRT.
enum UnaryOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 1...1)
        let operation: UnaryOperation
        switch context.builtin {
        case .relu: operation = .relu
        case .relu6: operation = .relu6
        case .reluN1To1: operation = .reluMinus1To1
        case .logistic: operation = .logistic
        case .tanh: operation = .tanh
        case .hardSwish: operation = .hardSwish
        case .neg: operation = .neg
        case .sqrt: operation = .sqrt
        case .rsqrt: operation = .rsqrt
        case .leakyRelu:
            guard case .leakyRelu(let alpha) = context.builtinOptions(.leakyRelu) else {
                throw context.failure("options are not LeakyReluOptions")
            }
            operation = .leakyRelu(alpha: alpha)
        default: throw context.failure("not an element-wise activation")
        }
        let input = try context.input(0)
        try context.expectFloat(input, "input")
        try context.setOutput(0, shape: input.shape)
        let output = context.output(0)
        let count = input.elementCount
        let reference = context.useReference
        let pool = context.pool
        var lowered = context.loweredFloat(reading: input) { x, y, _ in
            if reference { return { Reference.unary(operation, input: x, output: y, count: count) } }
            return { Unary.run(operation, input: x, output: y, count: count, pool: pool) }
        }
        // Operations computed exactly (one rounding at most), so an element's result cannot depend on whether it
        // falls in a vector body or a scalar tail: chains of them may run as lookup tables.
        let exact: Bool
        switch operation {
        case .relu, .relu6, .reluMinus1To1, .neg, .leakyRelu: exact = true
        default: exact = false
        }
        if exact, !input.isConstant, let channels = input.shape.last, channels > 0 {
            lowered.channelwiseMap = ChannelwiseMap(
                input: input.index, output: output.index, inputWidth: 4, outputWidth: 4, channels: channels
            ) { x, y, rows in
                Unary.run(
                    operation, input: x.assumingMemoryBound(to: Float.self),
                    output: y.assumingMemoryBound(to: Float.self),
                    count: rows * channels, pool: .serial)
            }
        }
        if !input.isConstant {
            switch operation {
            case .relu: lowered.epilogueSource = .clamp(input: input.index, .relu)
            case .relu6: lowered.epilogueSource = .clamp(input: input.index, .relu6)
            case .reluMinus1To1: lowered.epilogueSource = .clamp(input: input.index, .reluMinus1To1)
            default: break
            }
        }
        return lowered
    }
}
