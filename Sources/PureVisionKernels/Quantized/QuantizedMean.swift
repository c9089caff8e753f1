extension Quantized {
    /// MEAN of an 8-bit tensor as TFLite's `reference_ops::QuantizedMeanOrSum` does it (the general path):
    /// int32 sums over the reduced axes, then `multiply(sum − zpIn · n)` with the multiplier of `scaleIn / scaleOut`
    /// folded with `1 / n` (shifted left by ⌊log2 n⌋, capped at 32 and at `31 + shift`, then divided by n), plus the
    /// output zero point.
    /// - Parameters:
    ///   - outer / reduced / inner: the input read as `[outer, reduced, inner]` after the reduced axes are made
    ///     contiguous by the caller (`reducedOffsets` lists the element offsets of the reduced positions).
    @inlinable
    public static func mean<T: QuantizedElement>(
        input: UnsafePointer<T>, output: UnsafeMutablePointer<T>, outputCount: Int, outputOffsets: [Int],
        reducedOffsets: [Int], inputZeroPoint: Int32, outputZeroPoint: Int32, multiplier: QuantizedMultiplier
    ) {
        let n = reducedOffsets.count
        var m = multiplier
        if n > 0 {
            var shift = 63 - UInt64(n).leadingZeroBitCount
            shift = min(shift, 32)
            shift = min(shift, 31 + m.shift)
            m = QuantizedMultiplier(
                multiplier: Int32(truncatingIfNeeded: (Int64(m.multiplier) << Int64(shift)) / Int64(n)),
                shift: m.shift - shift)
        }
        let lower = Int32(T.min)
        let upper = Int32(T.max)
        for o in 0..<outputCount {
            let base = outputOffsets[o]
            var sum: Int32 = 0
            for offset in reducedOffsets { sum &+= Int32(input[base + offset]) }
            let value = m.apply(sum &- inputZeroPoint &* Int32(n)) &+ outputZeroPoint
            output[o] = T(truncatingIfNeeded: min(max(value, lower), upper))
        }
    }

    /// MEAN over height and width of a 4-D int8 tensor kept as `[N, 1, 1, C]`: TFLite's `optimized_integer_ops::Mean`
    /// (`multiply(sum)` with the multiplier of `scaleIn / (n · scaleOut)` in float, plus the bias
    /// `zpOut − round(zpIn · scaleIn / scaleOut)` rounded in float, ties away from zero).
    @inlinable
    public static func meanHeightWidth<T: QuantizedElement>(
        input: UnsafePointer<T>, output: UnsafeMutablePointer<T>, batch: Int, height: Int, width: Int, channels: Int,
        inputScale: Float, inputZeroPoint: Int32, outputScale: Float, outputZeroPoint: Int32
    ) {
        let n = Float(height * width)
        var shifted = Float(inputZeroPoint) * inputScale / outputScale
        shifted = shifted > 0 ? shifted + 0.5 : shifted - 0.5
        let bias = outputZeroPoint &- Int32(saturating: shifted)
        let m = QuantizedMultiplier(Double(inputScale / (n * outputScale)))
        let lower = Int32(T.min)
        let upper = Int32(T.max)
        for b in 0..<batch {
            for c in 0..<channels {
                var sum: Int32 = 0
                for p in 0..<(height * width) { sum &+= Int32(input[(b * height * width + p) * channels + c]) }
                let value = m.apply(sum) &+ bias
                output[b * channels + c] = T(truncatingIfNeeded: min(max(value, lower), upper))
            }
        }
    }
}
