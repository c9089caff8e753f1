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
        if rank == 0 {
            output.copyMemory(from: input, byteCount: elementByteWidth)
            return
        }
        let innerCount = outputShape[rank - 1]
        let innerStride = strides[rank - 1]
        let rowCount = outputShape.dropLast().reduce(1, *)
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * rank) { scratch in
            guard let inputStrides = scratch.baseAddress else { return }
            let index = inputStrides + rank
            var running = 1
            for axis in stride(from: rank - 1, through: 0, by: -1) {
                inputStrides[axis] = running
                running *= inputShape[axis]
                index[axis] = 0
            }
            var destination = output
            for _ in 0..<rowCount {
                var offset = 0
                for axis in 0..<rank {
                    offset += (begin[axis] + index[axis] * strides[axis]) * inputStrides[axis]
                }
                copyStridedElements(
                    from: input + offset * elementByteWidth, sourceStride: innerStride, to: destination,
                    count: innerCount, elementByteWidth: elementByteWidth)
                destination += innerCount * elementByteWidth
                var axis = rank - 2
                while axis >= 0 {
                    index[axis] += 1
                    if index[axis] < outputShape[axis] { break }
                    index[axis] = 0
                    axis -= 1
                }
            }
        }
    }
}
