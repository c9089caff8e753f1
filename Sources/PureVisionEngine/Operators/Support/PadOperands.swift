import PureVisionCore
import PureVisionTFLite

/// A PAD or PADV2 (float32 or 8-bit) after the checks its lowerings share: the paddings from the constant
/// `[rank, 2]` integer input 1, the padded shape, and PADV2's pad value, a constant scalar of the input's type.
struct PadOperands {
    let input: GraphTensor
    /// Per axis, the elements added before and after.
    let paddings: [(before: Int, after: Int)]
    let outputShape: [Int]
    /// PADV2's pad value, when given.
    let padValue: ConstantStorage?
}

extension LoweringContext {
    /// The checked operands of this PAD or PADV2, whose input is float32 unless `quantized`.
    func padOperands(quantized: Bool) throws(InterpreterError) -> PadOperands {
        try expectArity(inputs: builtin == .padv2 ? 2...3 : 2...2)
        let input = try input(0)
        let type = quantized ? input.elementType : .float32
        if !quantized { try expectFloat(input, "input") }
        let rank = input.shape.count
        let values = try constantIntegers(try self.input(1), "paddings")
        guard values.count == rank * 2 else {
            throw failure("paddings have \(values.count) values, expected \(rank) × 2 for input \(input.shape)")
        }
        var paddings: [(before: Int, after: Int)] = []
        var shape: [Int] = []
        for axis in 0..<rank {
            let (before, after) = (values[2 * axis], values[2 * axis + 1])
            guard before >= 0, after >= 0, before <= 1 << 24, after <= 1 << 24 else {
                throw failure("padding (\(before), \(after)) on axis \(axis) is not supported")
            }
            paddings.append((before, after))
            shape.append(input.shape[axis] + before + after)
        }
        var padValue: ConstantStorage?
        if let value = optionalInput(2) {
            try expectType(value, type, "pad value")
            guard let storage = value.constant, value.elementCount == 1 else {
                throw failure("pad value '\(value.name)' must be a constant scalar")
            }
            padValue = storage
        }
        return PadOperands(input: input, paddings: paddings, outputShape: shape, padValue: padValue)
    }
}
