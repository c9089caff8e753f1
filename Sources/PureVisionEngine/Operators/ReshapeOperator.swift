import PureVisionTFLite

/// RESHAPE and SQUEEZE: the same bytes under a new shape. RESHAPE takes the shape from its constant second input,
/// else from its options, else from the output tensor's declared shape; one extent may be −1 (inferred).
enum ReshapeOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 1...2)
        let input = try context.input(0)
        let requested: [Int]
        if context.builtin == .squeeze {
            guard case .squeeze(let dims) = context.builtinOptions(.squeeze) else {
                throw context.failure("options are not SqueezeOptions")
            }
            let rank = input.shape.count
            let axes = try dims.map { axis throws(InterpreterError) -> Int in
                guard axis >= -rank, axis < rank else { throw context.failure("squeeze axis \(axis) out of range") }
                return axis < 0 ? axis + rank : axis
            }
            requested = input.shape.enumerated().filter { axis, extent in
                extent != 1 || !(axes.isEmpty || axes.contains(axis))
            }.map(\.element)
        } else if let shapeTensor = context.optionalInput(1), shapeTensor.isConstant, shapeTensor.shape.count == 1 {
            requested = try context.constantIntegers(shapeTensor, "shape")
        } else if case .reshape(let newShape?) = context.builtinOptions(.reshape) {
            requested = newShape
        } else {
            requested = context.output(0).shape
        }
        let shape = try resolve(requested, elementCount: input.elementCount, context)
        try context.setOutput(0, shape: shape, type: input.elementType)
        let output = context.output(0)
        let bytes = input.byteCount
        var lowered = context.loweredBytes(reading: input) { x, y in
            return { if x != UnsafeRawPointer(y) { y.copyMemory(from: x, byteCount: bytes) } }
        }
        if !input.isConstant {
            lowered.slotSharing = [SlotSharing(tensor: output.index, container: input.index, byteOffset: 0)]
        }
        return lowered
    }

    /// Replaces a single −1 with the extent that keeps the element count.
    static func resolve(_ shape: [Int], elementCount: Int, _ context: LoweringContext) throws(InterpreterError) -> [Int]
    {
        var result = shape
        let unknown = shape.indices.filter { shape[$0] == -1 }
        guard unknown.count <= 1, shape.allSatisfy({ $0 >= -1 }) else {
            throw context.failure("invalid target shape \(shape)")
        }
        // A hostile target shape may overflow Int when multiplied out.
        var known = 1
        for dimension in shape where dimension != -1 {
            let (product, overflow) = known.multipliedReportingOverflow(by: dimension)
            guard !overflow else { throw context.failure("target shape \(shape) has too many elements") }
            known = product
        }
        if let position = unknown.first {
            guard known > 0, elementCount % known == 0 else {
                throw context.failure("cannot reshape \(elementCount) elements to \(shape)")
            }
            result[position] = elementCount / known
        }
        guard (unknown.isEmpty ? known : known * result[unknown[0]]) == elementCount else {
            throw context.failure("cannot reshape \(elementCount) elements to \(shape)")
        }
        return result
    }
}
