import PureVisionKernels
import PureVisionTFLite

/// GATHER along one axis (negative counts from the end) with constant int32 / int64 indices and `batch_dims` 0, on
/// any element type. The output shape is `input[..<axis] + indices.shape + input[(axis + 1)...]`. Indices are
/// checked at load (TFLite rejects out-of-range ones at run time), so dynamic indices are not supported.
enum GatherOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 2...2)
        guard case .gather(let rawAxis, let batchDims) = context.builtinOptions(.gather) else {
            throw context.failure("options are not GatherOptions")
        }
        guard batchDims == 0 else { throw context.failure("batch_dims \(batchDims) is not supported (only 0)") }
        let input = try context.input(0)
        let indexTensor = try context.input(1)
        let rank = input.shape.count
        guard rawAxis >= -rank, rawAxis < rank else {
            throw context.failure("axis \(rawAxis) out of range for rank \(rank)")
        }
        let axis = rawAxis < 0 ? rawAxis + rank : rawAxis
        let indices = try context.constantIntegers(indexTensor, "indices")
        let axisCount = input.shape[axis]
        if let bad = indices.first(where: { $0 < 0 || $0 >= axisCount }) {
            throw context.failure("index \(bad) out of range 0..<\(axisCount)")
        }
        let shape = Array(input.shape[..<axis]) + indexTensor.shape + Array(input.shape[(axis + 1)...])
        try context.setOutput(0, shape: shape, type: input.elementType)
        let outerCount = input.shape[..<axis].reduce(1, *)
        let innerBytes = input.shape[(axis + 1)...].reduce(1, *) * input.elementType.byteWidth
        return context.loweredBytes(reading: input) { x, y in
            return {
                AxisCopy.gather(
                    input: x, outerCount: outerCount, axisCount: axisCount, innerBytes: innerBytes, indices: indices,
                    output: y)
            }
        }
    }
}
