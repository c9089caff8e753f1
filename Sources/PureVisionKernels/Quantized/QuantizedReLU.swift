extension Quantized {
    /// RELU / RELU6 / RELU_N1_TO_1 on 8-bit tensors (TFLite's `ReluX`): `clamp(multiply(x − zpIn) + zpOut)`
    /// with the multiplier of `scaleIn / scaleOut` and `range` the activation's bounds on the output.
    @inlinable
    public static func relu<T: QuantizedElement>(
        input: UnsafePointer<T>, output: UnsafeMutablePointer<T>, count: Int, inputZeroPoint: Int32,
        outputZeroPoint: Int32, multiplier: QuantizedMultiplier, range: QuantizedRange
    ) {
        for i in 0..<count {
            let value = multiplier.apply(Int32(input[i]) &- inputZeroPoint) &+ outputZeroPoint
            output[i] = T(truncatingIfNeeded: range.clamp(value))
        }
    }
}
