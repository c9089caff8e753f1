extension Quantized {
    /// MUL of two 8-bit tensors broadcast by `plan`: `clamp(zpOut + multiply((a − zpA) · (b − zpB)))`, with
    /// `multiplier` made from `scaleA · scaleB / scaleOut` computed in float, as TFLite's MUL `Prepare` does.
    @inlinable
    public static func multiply<T: QuantizedElement>(
        lhs: UnsafePointer<T>, rhs: UnsafePointer<T>, output: UnsafeMutablePointer<T>, plan: BroadcastPlan,
        lhsZeroPoint: Int32, rhsZeroPoint: Int32, outputZeroPoint: Int32, multiplier: QuantizedMultiplier,
        range: QuantizedRange
    ) {
        plan.forEachElement { o, l, r in
            let product = (Int32(lhs[l]) &- lhsZeroPoint) &* (Int32(rhs[r]) &- rhsZeroPoint)
            output[o] = T(truncatingIfNeeded: range.clamp(multiplier.apply(product) &+ outputZeroPoint))
        }
    }
}
