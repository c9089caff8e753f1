import PureVisionTFLite

extension LoweringContext {
    /// The inputs of this CONCATENATION (at least one, all present) and its options: the axis as stored (negative
    /// counts from the end) and the fused activation.
    func concatenationOperands() throws(InterpreterError) -> (
        inputs: [GraphTensor], axis: Int, activation: FusedActivation
    ) {
        guard op.inputs.count >= 1, op.outputs.count == 1 else {
            throw failure("expects at least one input and one output")
        }
        guard case .concatenation(let axis, let activation) = builtinOptions(.concatenation) else {
            throw failure("options are not ConcatenationOptions")
        }
        var inputs: [GraphTensor] = []
        for position in 0..<op.inputs.count { inputs.append(try input(position)) }
        return (inputs, axis, activation)
    }
}
