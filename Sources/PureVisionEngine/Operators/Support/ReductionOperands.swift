import PureVisionCore
import PureVisionTFLite

/// A MEAN, SUM, REDUCE_MAX or REDUCE_MIN (float32 or 8-bit) after the checks its lowerings share.
struct ReductionOperands {
    let input: GraphTensor
    /// The reduced axes, normalized (negative ones count from the end), without repeats and sorted.
    let axes: [Int]
    /// Whether the reduced dimensions stay, as 1 (ReducerOptions' `keep_dims`).
    let keepDims: Bool
    let outputShape: [Int]
}

extension LoweringContext {
    /// The checked operands of this reduction (inputs `[input, axes]`, the axes a constant integer tensor), whose
    /// input is float32 unless `quantized`.
    func reductionOperands(quantized: Bool) throws(InterpreterError) -> ReductionOperands {
        try expectArity(inputs: 2...2)
        guard case .reducer(let keepDims) = builtinOptions(builtin) else {
            throw failure("options are not ReducerOptions")
        }
        let input = try input(0)
        if !quantized { try expectFloat(input, "input") }
        let rank = input.shape.count
        var axes: [Int] = []
        for axis in try constantIntegers(try self.input(1), "axes") {
            guard axis >= -rank, axis < rank else { throw failure("axis \(axis) out of range for rank \(rank)") }
            let normalized = axis < 0 ? axis + rank : axis
            if !axes.contains(normalized) { axes.append(normalized) }
        }
        axes.sort()
        var shape: [Int] = []
        for (axis, extent) in input.shape.enumerated() {
            if axes.contains(axis) {
                if keepDims { shape.append(1) }
            } else {
                shape.append(extent)
            }
        }
        return ReductionOperands(input: input, axes: axes, keepDims: keepDims, outputShape: shape)
    }
}
