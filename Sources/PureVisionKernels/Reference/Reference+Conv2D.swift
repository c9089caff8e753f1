extension Reference {
    /// 2-D convolution, NHWC, as plain nested loops.
    ///
    /// `output[b, oy, ox, o] = clamp(bias[o] + Σ_{ky, kx, i} input[b, iy, ix, i] · filter[o, ky, kx, i])` with
    /// `iy = oy·strideHeight − paddingTop + ky·dilationHeight` (likewise `ix`); taps outside the input read zero.
    ///
    /// - Parameters:
    ///   - input: `[batch, inputHeight, inputWidth, inputChannels]`.
    ///   - filter: OHWI, `[outputChannels, kernelHeight, kernelWidth, inputChannels]`.
    ///   - bias: `[outputChannels]`, or `nil` for zero.
    ///   - output: `[batch, outputHeight, outputWidth, outputChannels]`.
    ///   - arithmetic: the rounding (see ``Arithmetic``); both start from the bias and go in
    ///     `(ky, kx, i)` order.
    public static func conv2D(
        geometry g: Conv2DGeometry,
        input: UnsafePointer<Float>, filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        output: UnsafeMutablePointer<Float>, clamp: ClampRange, arithmetic: Arithmetic = .liteRT
    ) {
        precondition(g.isValid, "conv2D: invalid geometry \(g)")
        for b in 0..<g.batch {
            for oy in 0..<g.outputHeight {
                for ox in 0..<g.outputWidth {
                    for o in 0..<g.outputChannels {
                        var sum: Float = bias?[o] ?? 0
                        for ky in 0..<g.kernelHeight {
                            let iy = oy * g.strideHeight - g.paddingTop + ky * g.dilationHeight
                            if iy < 0 || iy >= g.inputHeight { continue }
                            for kx in 0..<g.kernelWidth {
                                let ix = ox * g.strideWidth - g.paddingLeft + kx * g.dilationWidth
                                if ix < 0 || ix >= g.inputWidth { continue }
                                let inputIndex = ((b * g.inputHeight + iy) * g.inputWidth + ix) * g.inputChannels
                                let filterIndex = ((o * g.kernelHeight + ky) * g.kernelWidth + kx) * g.inputChannels
                                for i in 0..<g.inputChannels {
                                    let (x, w) = (input[inputIndex + i], filter[filterIndex + i])
                                    if arithmetic == .xnnpack {
                                        sum = sum.addingProduct(x, w)
                                    } else {
                                        sum += x * w
                                    }
                                }
                            }
                        }
                        output[((b * g.outputHeight + oy) * g.outputWidth + ox) * g.outputChannels + o] =
                            clamp.apply(sum)
                    }
                }
            }
        }
    }
}
