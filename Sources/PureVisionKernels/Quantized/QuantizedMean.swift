extension Quantized {
    /// MEAN of an 8-bit tensor as TFLite's `reference_ops::QuantizedMeanOrSum` does it (the general path):
    /// int32 sums over the reduced axes, then `multiply(sum − zpIn · n)` with the multiplier of `scaleIn / scaleOut`
    /// folded with `1 / n` (shifted left by ⌊log2 n⌋, capped at 32 and at `31 + shift`, then divided by n), plus the
    /// output zero point.
    /// - Parameters:
    ///   - outputOffsets: each output's first input element, increasing.
    ///   - reducedOffsets: the element offsets of the reduced positions from an output's first input element.
    @inlinable
    public static func mean<T: QuantizedElement>(
        input: UnsafePointer<T>, output: UnsafeMutablePointer<T>, outputCount: Int, outputOffsets: [Int],
        reducedOffsets: [Int], inputZeroPoint: Int32, outputZeroPoint: Int32, multiplier: QuantizedMultiplier
    ) {
        let n = reducedOffsets.count
        let m = meanMultiplier(multiplier, count: n)
        let lower = Int32(T.min)
        let upper = Int32(T.max)
        @inline(__always) func store(_ sum: Int32, at o: Int) {
            let value = m.apply(sum &- inputZeroPoint &* Int32(n)) &+ outputZeroPoint
            output[o] = T(truncatingIfNeeded: min(max(value, lower), upper))
        }
        var o = 0
        while o < outputCount {
            let base = outputOffsets[o]
            // Offsets increase with o, so 16 outputs 15 elements apart read consecutive elements (a MEAN over
            // height and width without kept dimensions): their sums go 16 lanes at a time, exactly.
            if o + 16 <= outputCount, outputOffsets[o + 15] &- base == 15 {
                var sums = SIMD16<Int32>()
                for offset in reducedOffsets {
                    sums &+= SIMD16<Int32>(
                        truncatingIfNeeded: UnsafeRawPointer(input + base + offset).loadUnaligned(as: SIMD16<T>.self))
                }
                for j in 0..<16 { store(sums[j], at: o + j) }
                o += 16
                continue
            }
            var sum: Int32 = 0
            for offset in reducedOffsets { sum &+= Int32(input[base + offset]) }
            store(sum, at: o)
            o += 1
        }
    }

    /// MEAN over height and width of a 4-D int8 tensor kept as `[N, 1, 1, C]`: TFLite's `optimized_integer_ops::Mean`
    /// (`multiply(sum)` with the multiplier of `scaleIn / (n · scaleOut)` in float, plus the bias
    /// `zpOut − round(zpIn · scaleIn / scaleOut)` rounded in float, ties away from zero). Sixteen channels are summed
    /// at a time down the pixels (int32 sums, exact), the rest one by one; the twin is
    /// `Reference.quantizedMeanHeightWidth`.
    @inlinable
    public static func meanHeightWidth<T: QuantizedElement>(
        input: UnsafePointer<T>, output: UnsafeMutablePointer<T>, batch: Int, height: Int, width: Int, channels: Int,
        inputScale: Float, inputZeroPoint: Int32, outputScale: Float, outputZeroPoint: Int32
    ) {
        let (multiplier, bias) = meanHeightWidthRequantization(
            pixels: height * width, inputScale: inputScale, inputZeroPoint: inputZeroPoint, outputScale: outputScale,
            outputZeroPoint: outputZeroPoint)
        let lower = Int32(T.min)
        let upper = Int32(T.max)
        let pixels = height * width
        @inline(__always) func store(_ sum: Int32, at index: Int) {
            let value = multiplier.apply(sum) &+ bias
            output[index] = T(truncatingIfNeeded: min(max(value, lower), upper))
        }
        for b in 0..<batch {
            let image = input + b * pixels * channels
            var c = 0
            while c + 16 <= channels {
                var sums = SIMD16<Int32>()
                for p in 0..<pixels {
                    let values = UnsafeRawPointer(image + p * channels + c).loadUnaligned(as: SIMD16<T>.self)
                    sums &+= SIMD16<Int32>(truncatingIfNeeded: values)
                }
                for j in 0..<16 { store(sums[j], at: b * channels + c + j) }
                c += 16
            }
            while c < channels {
                var sum: Int32 = 0
                for p in 0..<pixels { sum &+= Int32(image[p * channels + c]) }
                store(sum, at: b * channels + c)
                c += 1
            }
        }
    }

    /// `multiplier` folded with `1 / n` as ``mean(input:output:outputCount:outputOffsets:reducedOffsets:inputZeroPoint:outputZeroPoint:multiplier:)``
    /// does it: shifted left by ⌊log2 n⌋ (capped at 32 and at `31 + shift`), then divided by n.
    @inlinable
    public static func meanMultiplier(_ multiplier: QuantizedMultiplier, count n: Int) -> QuantizedMultiplier {
        guard n > 0 else { return multiplier }
        var shift = 63 - UInt64(n).leadingZeroBitCount
        shift = min(shift, 32)
        shift = min(shift, 31 + multiplier.shift)
        return QuantizedMultiplier(
            multiplier: Int32(truncatingIfNeeded: (Int64(multiplier.multiplier) << Int64(shift)) / Int64(n)),
            shift: multiplier.shift - shift)
    }

    /// The multiplier and bias of ``meanHeightWidth(input:output:batch:height:width:channels:inputScale:inputZeroPoint:outputScale:outputZeroPoint:)``
    /// for a mean over `pixels` values.
    @inlinable
    public static func meanHeightWidthRequantization(
        pixels: Int, inputScale: Float, inputZeroPoint: Int32, outputScale: Float, outputZeroPoint: Int32
    ) -> (multiplier: QuantizedMultiplier, bias: Int32) {
        let n = Float(pixels)
        var shifted = Float(inputZeroPoint) * inputScale / outputScale
        shifted = shifted > 0 ? shifted + 0.5 : shifted - 0.5
        let bias = outputZeroPoint &- Int32(saturating: shifted)
        return (QuantizedMultiplier(Double(inputScale / (n * outputScale))), bias)
    }
}
