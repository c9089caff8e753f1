import PureVisionKernels
import PureVisionTFLite

/// PAD and PADV2: paddings from a constant [rank, 2] integer tensor; the pad value is 0 (PAD) or the constant
/// scalar third input (PADV2).
enum PadOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: context.builtin == .padv2 ? 2...3 : 2...2)
        let input = try context.input(0)
        try context.expectFloat(input, "input")
        let rank = input.shape.count
        let values = try context.constantIntegers(try context.input(1), "paddings")
        guard values.count == rank * 2 else {
            throw context.failure("paddings have \(values.count) values, expected \(rank) × 2 for input \(input.shape)")
        }
        var paddings: [(before: Int, after: Int)] = []
        var shape: [Int] = []
        for axis in 0..<rank {
            let (before, after) = (values[2 * axis], values[2 * axis + 1])
            guard before >= 0, after >= 0, before <= 1 << 24, after <= 1 << 24 else {
                throw context.failure("padding (\(before), \(after)) on axis \(axis) is not supported")
            }
            paddings.append((before, after))
            shape.append(input.shape[axis] + before + after)
        }
        var padValue: Float = 0
        if let value = context.optionalInput(2) {
            try context.expectFloat(value, "pad value")
            guard let storage = value.constant, value.elementCount == 1 else {
                throw context.failure("pad value '\(value.name)' must be a constant scalar")
            }
            padValue = storage.floats[0]
        }
        try context.setOutput(0, shape: shape)
        let output = context.output(0)
        let inputShape = input.shape
        let ctx = context
        let paddingPairs = paddings
        var lowered = context.lowered(reading: [input]) { binder in
            let x = UnsafePointer(ctx.pointer(input, binder).assumingMemoryBound(to: Float.self))
            let y = binder.floats(output.index)
            return {
                Pad.run(input: x, inputShape: inputShape, paddings: paddingPairs, padValue: padValue, output: y)
            }
        }
        if padValue == 0, !input.isConstant, let channels = inputShape.last, channels > 0,
            paddings.dropLast().allSatisfy({ $0.before == 0 && $0.after == 0 }), paddings.last?.before == 0
        {
            lowered.channelZeroPadding = (input.index, channels)
        }
        return lowered
    }
}
