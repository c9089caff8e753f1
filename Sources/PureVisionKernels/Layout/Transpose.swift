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
        if rank == 0 {
            output.copyMemory(from: input, byteCount: elementByteWidth)
            return
        }
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 4 * rank) { scratch in
            guard let inputStrides = scratch.baseAddress else { return }
            // Output extents, the input stride each output axis walks, and the row counter.
            let outputShape = inputStrides + rank
            let sourceStrides = outputShape + rank
            let index = sourceStrides + rank
            var running = 1
            for axis in stride(from: rank - 1, through: 0, by: -1) {
                inputStrides[axis] = running
                running *= inputShape[axis]
                index[axis] = 0
            }
            for axis in 0..<rank {
                let source = permutation[axis]
                precondition(source >= 0 && source < rank && index[source] == 0, "not a permutation")
                index[source] = 1
                outputShape[axis] = inputShape[source]
                sourceStrides[axis] = inputStrides[source]
            }
            if running == 0 { return }
            let innerCount = outputShape[rank - 1]
            let innerStride = sourceStrides[rank - 1]
            var rowCount = 1
            for axis in 0..<(rank - 1) {
                rowCount *= outputShape[axis]
                index[axis] = 0
            }
            var offset = 0
            var destination = output
            for _ in 0..<rowCount {
                copyStridedElements(
                    from: input + offset * elementByteWidth, sourceStride: innerStride, to: destination,
                    count: innerCount, elementByteWidth: elementByteWidth)
                destination += innerCount * elementByteWidth
                var axis = rank - 2
                while axis >= 0 {
                    index[axis] += 1
                    offset += sourceStrides[axis]
                    if index[axis] < outputShape[axis] { break }
                    offset -= sourceStrides[axis] * index[axis]
                    index[axis] = 0
                    axis -= 1
                }
            }
        }
    }
}
