import PureVisionKernels
import PureVisionTFLite

/// PAD and PADV2 on 8-bit tensors: the pad value is the output zero point (PAD, i.e. real 0) or the constant
/// 8-bit scalar third input (PADV2); input and output share their quantization.
enum QuantizedPadOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: context.builtin == .padv2 ? 2...3 : 2...2)
        let input = try context.input(0)
        let type = input.elementType
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
        try context.setOutput(0, shape: shape, type: type)
        let (_, outZero) = try context.outputQuantization(type)
        var padBits = UInt8(truncatingIfNeeded: outZero)
        if let value = context.optionalInput(2) {
            try context.expectType(value, type, "pad value")
            guard let storage = value.constant, value.elementCount == 1 else {
                throw context.failure("pad value '\(value.name)' must be a constant scalar")
            }
            padBits = storage.pointer.load(as: UInt8.self)
        }
        let output = context.output(0)
        let inputShape = input.shape
        let ctx = context
        let pairs = paddings
        return context.lowered(reading: [input]) { binder in
            let x = UnsafePointer(ctx.pointer(input, binder).assumingMemoryBound(to: UInt8.self))
            let y = binder.raw(output.index).assumingMemoryBound(to: UInt8.self)
            return { Quantized.pad(input: x, inputShape: inputShape, paddings: pairs, value: padBits, output: y) }
        }
    }
}
