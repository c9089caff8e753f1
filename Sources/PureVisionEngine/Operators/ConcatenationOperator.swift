import PureVisionKernels
import PureVisionTFLite

/// CONCATENATION of float32 tensors along one axis (negative counts from the end), with a fused activation.
enum ConcatenationOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        let (inputs, rawAxis, activation) = try context.concatenationOperands()
        for input in inputs { try context.expectFloat(input, "input") }
        let first = inputs[0].shape
        let rank = first.count
        guard rawAxis >= -rank, rawAxis < rank else { throw context.failure("axis \(rawAxis) out of range") }
        let axis = rawAxis < 0 ? rawAxis + rank : rawAxis
        var shape = first
        shape[axis] = 0
        for input in inputs {
            guard input.shape.count == rank,
                input.shape.indices.allSatisfy({ $0 == axis || input.shape[$0] == first[$0] })
            else { throw context.failure("input shapes \(inputs.map(\.shape)) differ off axis \(axis)") }
            shape[axis] += input.shape[axis]
        }
        let clamp = try context.clamp(activation)
        try context.setOutput(0, shape: shape)
        let output = context.output(0)
        let shapes = inputs.map(\.shape)
        var lowered = context.lowered(reading: inputs) { binder in
            let pointers = inputs.map { UnsafePointer(binder.raw($0).assumingMemoryBound(to: Float.self)) }
            let y = binder.floats(output.index)
            return { Concatenation.run(inputs: pointers, inputShapes: shapes, axis: axis, output: y, clamp: clamp) }
        }
        if clamp.isIdentity {
            lowered.slotSharing = slotSharing(inputs: inputs, output: output, axis: axis)
        }
        return lowered
    }
}

extension ConcatenationOperator {
    /// Where each run-time input lies in the output when every dimension before `axis` has extent 1 (each input is
    /// then one contiguous run of the output's bytes); none otherwise.
    static func slotSharing(inputs: [GraphTensor], output: GraphTensor, axis: Int) -> [SlotSharing] {
        guard output.shape[..<axis].allSatisfy({ $0 == 1 }) else { return [] }
        var offset = 0
        var sharing: [SlotSharing] = []
        for input in inputs {
            if !input.isConstant {
                sharing.append(SlotSharing(tensor: input.index, container: output.index, byteOffset: offset))
            }
            offset += input.byteCount
        }
        return sharing
    }
}
