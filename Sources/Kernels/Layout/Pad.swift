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
        let outputShape = zip(inputShape, paddings).map { $0 + $1.before + $1.after }
        if inputShape.isEmpty {
            output.copyMemory(from: inputBytes, byteCount: elementByteWidth)
            return
        }
        let context = Context(
            inputShape: inputShape, paddings: paddings, inputStrides: contiguousStrides(inputShape),
            outputStrides: contiguousStrides(outputShape), width: elementByteWidth, pattern: padValueBytes)
        if inputShape.contains(0) {
            fillElements(
                output, count: outputShape.reduce(1, *), pattern: padValueBytes, elementByteWidth: elementByteWidth)
            return
        }
        context.pad(axis: 0, input: inputBytes, output: output)
    }

    private struct Context {
        let inputShape: [Int]
        let paddings: [(before: Int, after: Int)]
        let inputStrides: [Int]
        let outputStrides: [Int]
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
