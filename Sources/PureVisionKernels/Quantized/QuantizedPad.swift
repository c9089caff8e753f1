extension Quantized {
    /// PAD / PADV2 of an 8-bit tensor: `value` (the output zero point for PAD, the given constant for PADV2)
    /// around the input, `paddings[axis] = (before, after)`.
    @inlinable
    public static func pad<T: QuantizedElement>(
        input: UnsafePointer<T>, inputShape: [Int], paddings: [(before: Int, after: Int)], value: T,
        output: UnsafeMutablePointer<T>
    ) {
        let rank = inputShape.count
        let outputShape = (0..<rank).map { inputShape[$0] + paddings[$0].before + paddings[$0].after }
        let total = outputShape.reduce(1, *)
        output.update(repeating: value, count: total)
        if rank == 0 {
            output[0] = input[0]
            return
        }
        var outputStrides = [Int](repeating: 1, count: rank)
        for axis in stride(from: rank - 2, through: 0, by: -1) {
            outputStrides[axis] = outputStrides[axis + 1] * outputShape[axis + 1]
        }
        let inner = inputShape[rank - 1]
        let rows = inputShape.dropLast().reduce(1, *)
        if inner == 0 { return }
        for row in 0..<rows {
            var rest = row
            var offset = paddings[rank - 1].before
            for axis in stride(from: rank - 2, through: 0, by: -1) {
                let i = rest % inputShape[axis]
                rest /= inputShape[axis]
                offset += (i + paddings[axis].before) * outputStrides[axis]
            }
            (output + offset).update(from: input + row * inner, count: inner)
        }
    }
}
