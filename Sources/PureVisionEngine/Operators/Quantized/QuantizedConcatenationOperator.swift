import PureVisionKernels
import PureVisionTFLite

/// CONCATENATION of 8-bit tensors. TFLite requires int8 inputs to share the output's scale and zero point (its int8
/// kernel copies bytes); the same is required here for uint8 (TFLite would rescale those).
enum QuantizedConcatenationOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        let (inputs, axisOption, activation) = try context.concatenationOperands()
        guard activation == .none else {
            throw context.failure("a fused activation on 8-bit CONCATENATION is not supported")
        }
        let first = inputs[0]
        let type = first.elementType
        let rank = first.shape.count
        let axis = axisOption < 0 ? axisOption + rank : axisOption
        guard axis >= 0, axis < rank else { throw context.failure("axis \(axisOption) out of range for rank \(rank)") }
        var shape = first.shape
        shape[axis] = 0
        for input in inputs {
            try context.expectType(input, type, "input")
            guard input.shape.count == rank,
                (0..<rank).allSatisfy({ $0 == axis || input.shape[$0] == first.shape[$0] })
            else { throw context.failure("input \(input.shape) does not match \(first.shape) outside axis \(axis)") }
            shape[axis] += input.shape[axis]
        }
        try context.setOutput(0, shape: shape, type: type)
        let outQ = try context.outputQuantization(type)
        for input in inputs {
            let q = try context.quantization(input, "input")
            guard q.scale == outQ.scale, q.zeroPoint == outQ.zeroPoint else {
                throw context.failure(
                    "input '\(input.name)' is quantized (\(q.scale), \(q.zeroPoint)), the output (\(outQ.scale), \(outQ.zeroPoint)): rescaling is not supported"
                )
            }
        }
        let outer = shape[..<axis].reduce(1, *)
        let innerBytes = inputs.map { $0.shape[axis...].reduce(1, *) }
        let output = context.output(0)
        let sources = inputs
        var lowered = context.lowered(reading: inputs) { binder in
            let pointers = sources.map { UnsafeRawPointer(binder.raw($0)) }
            let y = binder.raw(output.index)
            return { Quantized.concatenate(inputs: pointers, innerBytes: innerBytes, outerCount: outer, output: y) }
        }
        lowered.slotSharing = ConcatenationOperator.slotSharing(inputs: inputs, output: output, axis: axis)
        return lowered
    }
}
