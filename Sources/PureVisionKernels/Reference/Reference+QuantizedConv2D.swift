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
        for b in 0..<g.batch {
            for oy in 0..<g.outputHeight {
                for ox in 0..<g.outputWidth {
                    for o in 0..<g.outputChannels {
                        var acc: Int32 = bias?[o] ?? 0
                        for ky in 0..<g.kernelHeight {
                            for kx in 0..<g.kernelWidth {
                                let iy = oy * g.strideHeight - g.paddingTop + ky * g.dilationHeight
                                let ix = ox * g.strideWidth - g.paddingLeft + kx * g.dilationWidth
                                guard iy >= 0, iy < g.inputHeight, ix >= 0, ix < g.inputWidth else { continue }
                                for c in 0..<g.inputChannels {
                                    let x = Int32(
                                        input[((b * g.inputHeight + iy) * g.inputWidth + ix) * g.inputChannels + c])
                                    let w =
                                        Int32(
                                            filter[
                                                ((o * g.kernelHeight + ky) * g.kernelWidth + kx) * g.inputChannels + c])
                                        - weightZeroPoint
                                    acc &+= (x - inputZeroPoint) * w
                                }
                            }
                        }
                        let m = multipliers.count == 1 ? multipliers[0] : multipliers[o]
                        let scaled = m.apply(acc, rounding: rounding) + outputZeroPoint
                        output[((b * g.outputHeight + oy) * g.outputWidth + ox) * g.outputChannels + o] =
                            T(truncatingIfNeeded: range.clamp(scaled))
                    }
                }
            }
        }
    }

    /// Plain 8-bit DEPTHWISE_CONV_2D: `[1, KH, KW, Cout]` filter of the activations' type (minus
    /// `weightZeroPoint`), output channel `o` reads input channel `o / depthMultiplier`; out-of-bounds taps skipped.
    public static func quantizedDepthwiseConv2D<T: QuantizedElement>(
        geometry g: DepthwiseConv2DGeometry, input: UnsafePointer<T>, filter: UnsafePointer<T>,
        bias: UnsafePointer<Int32>?, inputZeroPoint: Int32, weightZeroPoint: Int32 = 0, outputZeroPoint: Int32,
        multipliers: [QuantizedMultiplier], range: QuantizedRange, rounding: RequantizationRounding,
        output: UnsafeMutablePointer<T>
    ) {
        for b in 0..<g.batch {
            for oy in 0..<g.outputHeight {
                for ox in 0..<g.outputWidth {
                    for o in 0..<g.outputChannels {
                        var acc: Int32 = bias?[o] ?? 0
                        for ky in 0..<g.kernelHeight {
                            for kx in 0..<g.kernelWidth {
                                let iy = oy * g.strideHeight - g.paddingTop + ky * g.dilationHeight
                                let ix = ox * g.strideWidth - g.paddingLeft + kx * g.dilationWidth
                                guard iy >= 0, iy < g.inputHeight, ix >= 0, ix < g.inputWidth else { continue }
                                let c = o / g.depthMultiplier
                                let x = Int32(
                                    input[((b * g.inputHeight + iy) * g.inputWidth + ix) * g.inputChannels + c])
                                let w =
                                    Int32(filter[(ky * g.kernelWidth + kx) * g.outputChannels + o]) - weightZeroPoint
                                acc &+= (x - inputZeroPoint) * w
                            }
                        }
                        let m = multipliers.count == 1 ? multipliers[0] : multipliers[o]
                        let scaled =
                            m.apply(acc, rounding: rounding.forChannel(o, of: g.outputChannels)) + outputZeroPoint
                        output[((b * g.outputHeight + oy) * g.outputWidth + ox) * g.outputChannels + o] =
                            T(truncatingIfNeeded: range.clamp(scaled))
                    }
                }
            }
        }
    }
}
