/// TRANSPOSE: permutes the dimensions of a row-major tensor of any element type.
///
/// Output dimension `i` is input dimension `permutation[i]`, so the output shape is
/// `permutation.map { inputShape[$0] }` and `output[i₀, …, iₙ] = input[j]` with `j[permutation[k]] = iₖ`.
public enum Transpose {
    /// Writes the transposed `input` into contiguous `output`.
    /// - Precondition: `permutation` is a permutation of `0..<inputShape.count`.
    public static func run(
        input: UnsafeRawPointer, inputShape: [Int], permutation: [Int], elementByteWidth: Int,
        output: UnsafeMutableRawPointer
    ) {
        let rank = inputShape.count
        precondition(permutation.count == rank, "not a permutation")
        withUnsafeTemporaryAllocation(of: Int.self, capacity: max(1, 4 * rank)) { scratch in
            guard let inputStrides = scratch.baseAddress else { return }
            // Output extents, the input stride each output axis walks, and which input axes the permutation took.
            let outputShape = inputStrides + rank
            let sourceStrides = outputShape + rank
            let taken = sourceStrides + rank
            var running = 1
            for axis in stride(from: rank - 1, through: 0, by: -1) {
                inputStrides[axis] = running
                running *= inputShape[axis]
                taken[axis] = 0
            }
            for axis in 0..<rank {
                let source = permutation[axis]
                precondition(source >= 0 && source < rank && taken[source] == 0, "not a permutation")
                taken[source] = 1
                outputShape[axis] = inputShape[source]
                sourceStrides[axis] = inputStrides[source]
            }
            if running == 0 { return }
            copyStridedView(
                from: input, offset: 0, shape: outputShape, strides: sourceStrides, rank: rank, to: output,
                elementByteWidth: elementByteWidth)
        }
    }
}
