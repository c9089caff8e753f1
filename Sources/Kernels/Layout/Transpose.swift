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
        precondition(permutation.count == rank && permutation.sorted() == Array(0..<rank), "not a permutation")
        let inputStrides = contiguousStrides(inputShape)
        let outputShape = permutation.map { inputShape[$0] }
        let sourceStrides = permutation.map { inputStrides[$0] }
        if outputShape.contains(0) { return }
        if rank == 0 {
            output.copyMemory(from: input, byteCount: elementByteWidth)
            return
        }
        let innerCount = outputShape[rank - 1]
        let innerStride = sourceStrides[rank - 1]
        let rowCount = outputShape.dropLast().reduce(1, *)
        var index = [Int](repeating: 0, count: rank)
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
