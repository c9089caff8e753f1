import PureVisionCore
import PureVisionKernels
import PureVisionTFLite

extension LoweringContext {
    /// The checked operands of this SOFTMAX over the last axis (float32 unless `quantized`): the input, β, and the
    /// input read as `rows` rows of `depth` elements. Sets output 0 to the input's shape and type.
    mutating func softmaxOperands(
        quantized: Bool
    ) throws(InterpreterError) -> (input: GraphTensor, beta: Float, rows: Int, depth: Int) {
        try expectArity(inputs: 1...1)
        guard case .softmax(let beta) = builtinOptions(.softmax) else {
            throw failure("options are not SoftmaxOptions")
        }
        let input = try input(0)
        if !quantized { try expectFloat(input, "input") }
        guard let depth = input.shape.last, depth > 0 else { throw failure("input must have rank ≥ 1") }
        try setOutput(0, shape: input.shape, type: quantized ? input.elementType : .float32)
        return (input, beta, input.elementCount / depth, depth)
    }

    /// The two inputs of an element-wise operator with NumPy broadcasting (`roles` name them in errors): float32,
    /// or when `quantized`, the second of the first's 8-bit type; their broadcast shape (shapes aligned on the
    /// right, each pair of extents equal or one of them 1), set as output 0's shape and type; and the plan that
    /// walks it.
    mutating func broadcastOperands(
        quantized: Bool, roles: (String, String)
    ) throws(InterpreterError) -> (lhs: GraphTensor, rhs: GraphTensor, shape: [Int], plan: BroadcastPlan) {
        let lhs = try input(0)
        let rhs = try input(1)
        let type = quantized ? lhs.elementType : .float32
        if !quantized { try expectFloat(lhs, roles.0) }
        try expectType(rhs, type, roles.1)
        guard let shape = BinaryOperator.broadcastShape(lhs.shape, rhs.shape) else {
            throw failure("shapes \(lhs.shape) and \(rhs.shape) do not broadcast")
        }
        try setOutput(0, shape: shape, type: type)
        return (lhs, rhs, shape, BroadcastPlan(lhsShape: lhs.shape, rhsShape: rhs.shape, outputShape: shape))
    }
}
