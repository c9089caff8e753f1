import PureVisionKernels
import PureVisionTFLite

/// PRELU: `x ≥ 0 ? x : alpha · x`, with alpha broadcast to the input (usually one slope per channel).
enum PReLUOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 2...2)
        let (input, alpha, shape, plan) = try context.broadcastOperands(quantized: false, roles: ("input", "alpha"))
        let output = context.output(0)
        let (inputShape, alphaShape) = (input.shape, alpha.shape)
        let reference = context.useReference
        let pool = context.pool
        var lowered = context.loweredFloat(reading: input, alpha) { x, a, y in
            if reference {
                return {
                    Reference.prelu(
                        input: x, inputShape: inputShape, alpha: a, alphaShape: alphaShape, output: y,
                        outputShape: shape)
                }
            }
            return { PReLU.run(input: x, alpha: a, output: y, plan: plan, pool: pool) }
        }
        if let slopes = perChannelSlopes(input: input, alpha: alpha, outputShape: shape) {
            lowered.epilogueSource = .prelu(input: input.index, alpha: slopes)
            lowered.channelwiseMap = ChannelwiseMap(
                input: input.index, output: output.index, inputWidth: 4, outputWidth: 4, channels: slopes.count
            ) { x, y, rows in
                let plan = BroadcastPlan(
                    lhsShape: [rows, slopes.count], rhsShape: [slopes.count], outputShape: [rows, slopes.count])
                slopes.withUnsafeBufferPointer { a in
                    guard let a = a.baseAddress else { return }
                    PReLU.run(
                        input: x.assumingMemoryBound(to: Float.self), alpha: a,
                        output: y.assumingMemoryBound(to: Float.self), plan: plan, pool: .serial)
                }
            }
        }
        return lowered
    }

    /// One slope per channel (the input's innermost axis) when `alpha` is a constant that only varies along that
    /// axis (or is a single value) and the output is shaped like the input; nil otherwise.
    static func perChannelSlopes(input: GraphTensor, alpha: GraphTensor, outputShape: [Int]) -> [Float]? {
        guard let storage = alpha.constant, !input.isConstant, outputShape == input.shape,
            let channels = input.shape.last, channels > 0, alpha.shape.count <= input.shape.count,
            alpha.shape.dropLast().allSatisfy({ $0 == 1 })
        else { return nil }
        let values = storage.floats
        switch alpha.elementCount {
        case channels: return (0..<channels).map { values[$0] }
        case 1: return [Float](repeating: values[0], count: channels)
        default: return nil
        }
    }
}
