/// PAD / PADV2: surrounds a tensor with a constant.
///
/// `output` has shape `inputShape[d] + paddings[d].before + paddings[d].after` per dimension, row-major; every
/// element not copied from the input equals the pad value. Paddings are non-negative (the caller validates).
public enum Pad {
    /// Pads a float32 tensor with `padValue`.
    public static func run(
        input: UnsafePointer<Float>, inputShape: [Int], paddings: [(before: Int, after: Int)], padValue: Float,
        output: UnsafeMutablePointer<Float>
    ) {
        withUnsafeBytes(of: padValue) { pattern in
            run(
                inputBytes: UnsafeRawPointer(input), elementByteWidth: 4, inputShape: inputShape, paddings: paddings,
                padValueBytes: pattern.baseAddress!, output: UnsafeMutableRawPointer(output))
        }
    }

    /// Pads a tensor of any element type, given its element width in bytes and a pointer to one element's bytes
    /// (`padValueBytes`) to fill with.
    public static func run(
        inputBytes: UnsafeRawPointer, elementByteWidth: Int, inputShape: [Int], paddings: [(before: Int, after: Int)],
        padValueBytes: UnsafeRawPointer, output: UnsafeMutableRawPointer
    ) {
        precondition(paddings.count == inputShape.count, "one (before, after) pair per dimension")
        precondition(paddings.allSatisfy { $0.before >= 0 && $0.after >= 0 }, "negative padding")
        precondition(elementByteWidth > 0, "element width must be positive")
        let rank = inputShape.count
        if rank == 0 {
            output.copyMemory(from: inputBytes, byteCount: elementByteWidth)
            return
        }
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * rank) { strides in
            guard let inputStrides = strides.baseAddress else { return }
            let outputStrides = inputStrides + rank
            var inputRunning = 1
            var outputRunning = 1
            for axis in stride(from: rank - 1, through: 0, by: -1) {
                inputStrides[axis] = inputRunning
                outputStrides[axis] = outputRunning
                inputRunning *= inputShape[axis]
                outputRunning *= inputShape[axis] + paddings[axis].before + paddings[axis].after
            }
            if inputShape.contains(0) {
                fillElements(output, count: outputRunning, pattern: padValueBytes, elementByteWidth: elementByteWidth)
                return
            }
            let context = Context(
                inputShape: inputShape, paddings: paddings, inputStrides: inputStrides, outputStrides: outputStrides,
                width: elementByteWidth, pattern: padValueBytes)
            context.pad(axis: 0, input: inputBytes, output: output)
        }
    }

    private struct Context {
        let inputShape: [Int]
        let paddings: [(before: Int, after: Int)]
        let inputStrides: UnsafePointer<Int>
        let outputStrides: UnsafePointer<Int>
        let width: Int
        let pattern: UnsafeRawPointer

        /// Writes the output block of dimension `axis` (and all inner ones) that starts at `output`.
        func pad(axis: Int, input: UnsafeRawPointer, output: UnsafeMutableRawPointer) {
            let block = outputStrides[axis] * width
            let before = paddings[axis].before
            fillElements(output, count: before * outputStrides[axis], pattern: pattern, elementByteWidth: width)
            var destination = output + before * block
            if axis == inputShape.count - 1 {
                destination.copyMemory(from: input, byteCount: inputShape[axis] * width)
                destination += inputShape[axis] * width
            } else {
                for i in 0..<inputShape[axis] {
                    pad(axis: axis + 1, input: input + i * inputStrides[axis] * width, output: destination)
                    destination += block
                }
            }
            fillElements(
                destination, count: paddings[axis].after * outputStrides[axis], pattern: pattern,
                elementByteWidth: width)
        }
    }
}
