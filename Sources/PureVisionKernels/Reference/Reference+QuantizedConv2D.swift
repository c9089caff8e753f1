extension Reference {
    /// Plain 8-bit CONV_2D: `out = clamp(zpOut + requantize(bias + Σ (x − zpIn) · (w − zpW)))` over in-bounds
    /// taps, one output at a time. OHWI filter of the activations' type (int8 with `weightZeroPoint` 0, or uint8);
    /// `multipliers` one per output channel or one for all.
    public static func quantizedConv2D<T: QuantizedElement>(
        geometry g: Conv2DGeometry, input: UnsafePointer<T>, filter: UnsafePointer<T>,
        bias: UnsafePointer<Int32>?, inputZeroPoint: Int32, weightZeroPoint: Int32 = 0, outputZeroPoint: Int32,
        multipliers: [QuantizedMultiplier], range: QuantizedRange, rounding: RequantizationRounding,
        output: UnsafeMutablePointer<T>
    ) {
        quantizedConvolution(
            geometry: g, bias: bias, outputZeroPoint: outputZeroPoint, multipliers: multipliers, range: range,
            output: output, rounding: { _ in rounding },
            tap: { o, ky, kx, pixel in
                let x = input + pixel * g.inputChannels
                let w = filter + ((o * g.window.kernelHeight + ky) * g.window.kernelWidth + kx) * g.inputChannels
                var sum: Int32 = 0
                for c in 0..<g.inputChannels {
                    sum &+= (Int32(x[c]) - inputZeroPoint) * (Int32(w[c]) - weightZeroPoint)
                }
                return sum
            })
    }

    /// Plain 8-bit DEPTHWISE_CONV_2D: `[1, KH, KW, Cout]` filter of the activations' type (minus
    /// `weightZeroPoint`), output channel `o` reads input channel `o / depthMultiplier`; out-of-bounds taps skipped.
    public static func quantizedDepthwiseConv2D<T: QuantizedElement>(
        geometry depthwise: DepthwiseConv2DGeometry, input: UnsafePointer<T>, filter: UnsafePointer<T>,
        bias: UnsafePointer<Int32>?, inputZeroPoint: Int32, weightZeroPoint: Int32 = 0, outputZeroPoint: Int32,
        multipliers: [QuantizedMultiplier], range: QuantizedRange, rounding: RequantizationRounding,
        output: UnsafeMutablePointer<T>
    ) {
        let g = depthwise.convolution
        quantizedConvolution(
            geometry: g, bias: bias, outputZeroPoint: outputZeroPoint, multipliers: multipliers, range: range,
            output: output, rounding: { rounding.forChannel($0, of: g.outputChannels) },
            tap: { o, ky, kx, pixel in
                let x = Int32(input[pixel * g.inputChannels + o / depthwise.depthMultiplier])
                let w = Int32(filter[(ky * g.window.kernelWidth + kx) * g.outputChannels + o]) - weightZeroPoint
                return (x - inputZeroPoint) * w
            })
    }

    /// The loop both 8-bit convolution references share: each output element starts from its bias, adds
    /// `tap(o, ky, kx, pixel)` for every in-bounds tap in filter row order (int32, wrapping), and is requantized
    /// with its channel's multiplier and `rounding(o)`, offset by the output zero point and clamped to `range`.
    private static func quantizedConvolution<T: QuantizedElement>(
        geometry g: Conv2DGeometry, bias: UnsafePointer<Int32>?, outputZeroPoint: Int32,
        multipliers: [QuantizedMultiplier], range: QuantizedRange, output: UnsafeMutablePointer<T>,
        rounding: (_ o: Int) -> RequantizationRounding, tap: (_ o: Int, _ ky: Int, _ kx: Int, _ pixel: Int) -> Int32
    ) {
        g.forEachOutput { b, oy, ox, o, outputIndex in
            var acc: Int32 = bias?[o] ?? 0
            g.forEachTap(b, oy, ox) { ky, kx, pixel in acc &+= tap(o, ky, kx, pixel) }
            let m = multipliers.count == 1 ? multipliers[0] : multipliers[o]
            let scaled = m.apply(acc, rounding: rounding(o)) + outputZeroPoint
            output[outputIndex] = T(truncatingIfNeeded: range.clamp(scaled))
        }
    }
}
