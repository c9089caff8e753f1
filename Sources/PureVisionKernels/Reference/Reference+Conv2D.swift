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
        g.forEachOutput { b, oy, ox, o, outputIndex in
            var sum: Float = bias?[o] ?? 0
            g.forEachTap(b, oy, ox) { ky, kx, pixel in
                let x = input + pixel * g.inputChannels
                let w = filter + ((o * g.window.kernelHeight + ky) * g.window.kernelWidth + kx) * g.inputChannels
                for i in 0..<g.inputChannels {
                    if arithmetic == .xnnpack {
                        sum = sum.addingProduct(x[i], w[i])
                    } else {
                        sum += x[i] * w[i]
                    }
                }
            }
            output[outputIndex] = clamp.apply(sum)
        }
    }
}
