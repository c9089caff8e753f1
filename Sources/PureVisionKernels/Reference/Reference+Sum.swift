extension Reference {
    /// Sum over `axes` of a row-major tensor (TFLite's SUM), as one pass over the input in row-major order: every
    /// input element is added (in float) to the output element it reduces into, as TFLite's reference reduction
    /// does. Used as the kernel too: SUM appears in small tensors only (the face blendshape model).
    ///
    /// - Parameters:
    ///   - input: `inputShape` elements, row-major. Every dimension ≥ 0.
    ///   - axes: Dimensions to reduce: sorted, unique, each in `0 ..< inputShape.count` (empty copies the input).
    ///   - output: The input shape with the reduced dimensions removed; an empty reduction yields 0.
    public static func sum(
        input: UnsafePointer<Float>, inputShape: [Int], axes: [Int], output: UnsafeMutablePointer<Float>
    ) {
        reduceRowMajor(
            FloatSumReducer(), input: input, inputShape: inputShape, axes: axes, output: output, operation: "sum")
    }
}
