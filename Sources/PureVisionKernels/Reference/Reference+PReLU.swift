extension Reference {
    /// Scalar twin of `PReLU.run`: `output = input >= 0 ? input : alpha * input`, both operands broadcast to
    /// `outputShape` under NumPy rules.
    public static func prelu(
        input: UnsafePointer<Float>, inputShape: [Int], alpha: UnsafePointer<Float>, alphaShape: [Int],
        output: UnsafeMutablePointer<Float>, outputShape: [Int]
    ) {
        let count = outputShape.reduce(1, *)
        for flat in 0..<count {
            let x = input[broadcastSourceIndex(flat, outputShape: outputShape, sourceShape: inputShape)]
            let a = alpha[broadcastSourceIndex(flat, outputShape: outputShape, sourceShape: alphaShape)]
            output[flat] = x >= 0 ? x : a * x
        }
    }
}
