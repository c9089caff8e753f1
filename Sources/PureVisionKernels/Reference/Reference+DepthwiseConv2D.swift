extension Reference {
    /// Depthwise 2-D convolution, NHWC, as plain nested loops.
    ///
    /// `output[b, oy, ox, c] = clamp(bias[c] + Σ_{ky, kx} input[b, iy, ix, c / depthMultiplier] · filter[0, ky, kx,
    /// c])` with `iy = oy·strideHeight − paddingTop + ky·dilationHeight` (likewise `ix`); taps outside the input
    /// read zero.
    ///
    /// - Parameters:
    ///   - input: `[batch, inputHeight, inputWidth, inputChannels]`.
    ///   - filter: `[1, kernelHeight, kernelWidth, outputChannels]`.
    ///   - bias: `[outputChannels]`, or `nil` for zero.
    ///   - output: `[batch, outputHeight, outputWidth, outputChannels]`.
    ///   - arithmetic: the rounding and tap order (see ``Arithmetic``).
    public static func depthwiseConv2D(
        geometry g: DepthwiseConv2DGeometry,
        input: UnsafePointer<Float>, filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        output: UnsafeMutablePointer<Float>, clamp: ClampRange, arithmetic: Arithmetic = .liteRT
    ) {
        precondition(g.isValid, "depthwiseConv2D: invalid geometry \(g)")
        for b in 0..<g.batch {
            for oy in 0..<g.outputHeight {
                for ox in 0..<g.outputWidth {
                    for c in 0..<g.outputChannels {
                        let inputChannel = c / g.depthMultiplier
                        var sum: Float = bias?[c] ?? 0
                        let fused = arithmetic == .xnnpack
                        let (outer, inner) = fused ? (g.kernelWidth, g.kernelHeight) : (g.kernelHeight, g.kernelWidth)
                        for first in 0..<outer {
                            for second in 0..<inner {
                                let (ky, kx) = fused ? (second, first) : (first, second)
                                let iy = oy * g.strideHeight - g.paddingTop + ky * g.dilationHeight
                                let ix = ox * g.strideWidth - g.paddingLeft + kx * g.dilationWidth
                                if iy < 0 || iy >= g.inputHeight || ix < 0 || ix >= g.inputWidth { continue }
                                let x = input[
                                    ((b * g.inputHeight + iy) * g.inputWidth + ix) * g.inputChannels
                                        + inputChannel]
                                let w = filter[(ky * g.kernelWidth + kx) * g.outputChannels + c]
                                if fused { sum = sum.addingProduct(x, w) } else { sum += x * w }
                            }
                        }
                        output[((b * g.outputHeight + oy) * g.outputWidth + ox) * g.outputChannels + c] =
                            clamp.apply(sum)
                    }
                }
            }
        }
    }
}
