/// Data movement along one axis, on elements of any type (copied as bytes): GATHER and UNPACK.
///
/// The tensor is seen as `[outerCount, axisCount, inner]` with `innerBytes` bytes per inner block (the product of
/// the dimensions after the axis times the element size). These are plain loops of `memcpy`s; they are their own
/// reference (nothing here reorders arithmetic).
public enum AxisCopy {
    /// GATHER with `batch_dims` 0: `output[o, j, :] = input[o, indices[j], :]`.
    ///
    /// - Parameters:
    ///   - indices: Each in `0 ..< axisCount` (the caller checks; TFLite rejects other values).
    ///   - output: `outerCount · indices.count · innerBytes` bytes; must not overlap the input.
    public static func gather(
        input: UnsafeRawPointer, outerCount: Int, axisCount: Int, innerBytes: Int, indices: [Int],
        output: UnsafeMutableRawPointer
    ) {
        precondition(indices.allSatisfy { $0 >= 0 && $0 < axisCount }, "gather: index out of 0..<\(axisCount)")
        var destination = output
        for outer in 0..<outerCount {
            let block = input + outer * axisCount * innerBytes
            for index in indices {
                destination.copyMemory(from: block + index * innerBytes, byteCount: innerBytes)
                destination += innerBytes
            }
        }
    }

    /// UNPACK: output `k` is `input[:, k, :]`, for every `k` in `0 ..< axisCount` (`outputs.count == axisCount`).
    ///
    /// - Parameter outputs: Each `outerCount · innerBytes` bytes; none may overlap the input.
    public static func unpack(
        input: UnsafeRawPointer, outerCount: Int, axisCount: Int, innerBytes: Int,
        outputs: [UnsafeMutableRawPointer]
    ) {
        precondition(outputs.count == axisCount, "unpack: \(outputs.count) outputs for an axis of \(axisCount)")
        for outer in 0..<outerCount {
            for (k, output) in outputs.enumerated() {
                (output + outer * innerBytes).copyMemory(
                    from: input + (outer * axisCount + k) * innerBytes, byteCount: innerBytes)
            }
        }
    }
}
