import PureVisionKernels
import PureVisionTFLite

/// UNPACK: splits a tensor of any element type along one axis (negative counts from the end) into `num` outputs,
/// each the input without that axis.
enum UnpackOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        guard case .unpack(let count, let rawAxis) = context.builtinOptions(.unpack) else {
            throw context.failure("options are not UnpackOptions")
        }
        let input = try context.input(0)
        let rank = input.shape.count
        guard rawAxis >= -rank, rawAxis < rank else {
            throw context.failure("axis \(rawAxis) out of range for rank \(rank)")
        }
        let axis = rawAxis < 0 ? rawAxis + rank : rawAxis
        let axisCount = input.shape[axis]
        guard count == axisCount else { throw context.failure("num \(count) ≠ dimension \(axisCount) of axis \(axis)") }
        try context.expectArity(inputs: 1...1, outputs: axisCount)
        var shape = input.shape
        shape.remove(at: axis)
        for position in 0..<axisCount { try context.setOutput(position, shape: shape, type: input.elementType) }
        let outputs = (0..<axisCount).map { context.output($0).index }
        let outerCount = input.shape[..<axis].reduce(1, *)
        let innerBytes = input.shape[(axis + 1)...].reduce(1, *) * input.elementType.byteWidth
        return context.lowered(reading: [input]) { binder in
            let x = UnsafeRawPointer(binder.raw(input))
            let ys = outputs.map { binder.raw($0) }
            return {
                AxisCopy.unpack(
                    input: x, outerCount: outerCount, axisCount: axisCount, innerBytes: innerBytes, outputs: ys)
            }
        }
    }
}
