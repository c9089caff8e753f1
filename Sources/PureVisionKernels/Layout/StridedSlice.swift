/// STRIDED_SLICE (and SLICE) on resolved per-dimension parameters.
///
/// The caller has already applied TFLite's masks and clamping, so for every dimension `d` the output index `i` in
/// `0..<outputShape[d]` reads input index `begin[d] + i * strides[d]`; strides may be negative but never 0.
/// Dimensions removed by a shrink mask appear here with output extent 1. Any element type, by byte width.
public enum StridedSlice {
    /// Copies the selected elements of `input` (row-major, `inputShape`) into contiguous `output`.
    /// - Precondition: every index read lies inside `inputShape`.
    public static func run(
        input: UnsafeRawPointer, inputShape: [Int], elementByteWidth: Int, begin: [Int], strides: [Int],
        outputShape: [Int], output: UnsafeMutableRawPointer
    ) {
        let rank = inputShape.count
        precondition(begin.count == rank && strides.count == rank && outputShape.count == rank, "rank mismatch")
        if outputShape.contains(0) { return }
        for axis in 0..<rank {
            let last = begin[axis] + (outputShape[axis] - 1) * strides[axis]
            precondition(strides[axis] != 0, "zero stride")
            precondition(
                (0..<inputShape[axis]).contains(begin[axis]) && (0..<inputShape[axis]).contains(last),
                "slice leaves dimension \(axis) of \(inputShape)")
        }
        withUnsafeTemporaryAllocation(of: Int.self, capacity: max(1, 2 * rank)) { scratch in
            guard let stepStrides = scratch.baseAddress else { return }
            // The input elements one step along each output axis moves, and the output extents.
            let shape = stepStrides + rank
            var inputStride = 1
            var offset = 0
            for axis in stride(from: rank - 1, through: 0, by: -1) {
                stepStrides[axis] = strides[axis] * inputStride
                shape[axis] = outputShape[axis]
                offset += begin[axis] * inputStride
                inputStride *= inputShape[axis]
            }
            copyStridedView(
                from: input, offset: offset, shape: shape, strides: stepStrides, rank: rank, to: output,
                elementByteWidth: elementByteWidth)
        }
    }
}
