extension Reference {
    /// Fully connected layer as plain nested loops:
    /// `output[b, o] = clamp(Σ_i input[b, i] · weights[o, i] + bias[o])`.
    ///
    /// - Parameters:
    ///   - input: `[batch, inputSize]`.
    ///   - weights: `[outputSize, inputSize]`.
    ///   - bias: `[outputSize]`, or `nil` for zero.
    ///   - output: `[batch, outputSize]`.
    ///   - arithmetic: the rounding and where the bias enters (see ``Arithmetic``).
    public static func fullyConnected(
        batch: Int, inputSize: Int, outputSize: Int,
        input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        output: UnsafeMutablePointer<Float>, clamp: ClampRange, arithmetic: Arithmetic = .liteRT
    ) {
        precondition(
            batch > 0 && inputSize > 0 && outputSize > 0,
            "fullyConnected: batch \(batch), inputSize \(inputSize), outputSize \(outputSize)")
        for b in 0..<batch {
            for o in 0..<outputSize {
                if arithmetic == .xnnpack {
                    var sum: Float = bias?[o] ?? 0
                    for i in 0..<inputSize {
                        sum = sum.addingProduct(input[b * inputSize + i], weights[o * inputSize + i])
                    }
                    output[b * outputSize + o] = clamp.apply(sum)
                } else {
                    var sum: Float = 0
                    for i in 0..<inputSize { sum += input[b * inputSize + i] * weights[o * inputSize + i] }
                    output[b * outputSize + o] = clamp.apply(sum + (bias?[o] ?? 0))
                }
            }
        }
    }
}
