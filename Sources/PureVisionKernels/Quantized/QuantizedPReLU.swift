extension Quantized {
    /// PRELU on 8-bit tensors (TFLite's scheme): `x − zp ≥ 0` scales by `identity` (scaleIn / scaleOut), otherwise
    /// `(x − zp) · (α − zpα)` scales by `alphaMultiplier` (scaleIn · scaleα / scaleOut); plus the output zero point.
    @inlinable
    public static func prelu<T: QuantizedElement>(
        input: UnsafePointer<T>, alpha: UnsafePointer<T>, output: UnsafeMutablePointer<T>, plan: BroadcastPlan,
        inputZeroPoint: Int32, alphaZeroPoint: Int32, outputZeroPoint: Int32, identity: QuantizedMultiplier,
        alphaMultiplier: QuantizedMultiplier
    ) {
        let lower = Int32(T.min)
        let upper = Int32(T.max)
        plan.forEachElement { o, l, r in
            let x = Int32(input[l]) &- inputZeroPoint
            let scaled: Int32
            if x >= 0 {
                scaled = identity.apply(x)
            } else {
                scaled = alphaMultiplier.apply(x &* (Int32(alpha[r]) &- alphaZeroPoint))
            }
            output[o] = T(truncatingIfNeeded: min(max(scaled &+ outputZeroPoint, lower), upper))
        }
    }
}
