extension Reference {
    /// 2-D transposed convolution, NHWC, as the scatter loops MediaPipe's `Convolution2DTransposeBias` and TFLite's
    /// reference `TRANSPOSE_CONV` are written as.
    ///
    /// Every output starts at `bias[o]` (`.first`) or 0 (`.last`); then, for each input pixel, input channel
    /// `i`, tap `(ky, kx)` and output channel `o`, in that loop order,
    /// `output[b, iy·sh − pt + ky, ix·sw − pl + kx, o] += input[b, iy, ix, i] · filter[o, ky, kx, i]` when that
    /// position lies inside the output; with `.last` the bias is added after all products. `clamp` applies last.
    ///
    /// - Parameters:
    ///   - input: `[batch, inputHeight, inputWidth, inputChannels]`.
    ///   - filter: OHWI, `[outputChannels, kernelHeight, kernelWidth, inputChannels]`.
    ///   - bias: `[outputChannels]`, or `nil` for zero.
    ///   - output: `[batch, outputHeight, outputWidth, outputChannels]`.
    public static func transposeConv2D(
        geometry g: TransposeConv2DGeometry,
        input: UnsafePointer<Float>, filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        output: UnsafeMutablePointer<Float>, biasOrder: TransposeConv2DGeometry.BiasOrder, clamp: ClampRange
    ) {
        precondition(g.isValid, "transposeConv2D: invalid geometry \(g)")
        let pixels = g.batch * g.outputHeight * g.outputWidth
        for p in 0..<pixels {
            for o in 0..<g.outputChannels {
                output[p * g.outputChannels + o] = biasOrder == .first ? (bias?[o] ?? 0) : 0
            }
        }
        for b in 0..<g.batch {
            for iy in 0..<g.inputHeight {
                for ix in 0..<g.inputWidth {
                    for i in 0..<g.inputChannels {
                        let x = input[((b * g.inputHeight + iy) * g.inputWidth + ix) * g.inputChannels + i]
                        for ky in 0..<g.window.kernelHeight {
                            let oy = iy * g.window.strideHeight - g.window.paddingTop + ky
                            if oy < 0 || oy >= g.outputHeight { continue }
                            for kx in 0..<g.window.kernelWidth {
                                let ox = ix * g.window.strideWidth - g.window.paddingLeft + kx
                                if ox < 0 || ox >= g.outputWidth { continue }
                                let outputIndex = ((b * g.outputHeight + oy) * g.outputWidth + ox) * g.outputChannels
                                for o in 0..<g.outputChannels {
                                    let w = filter[
                                        ((o * g.window.kernelHeight + ky) * g.window.kernelWidth + kx) * g.inputChannels
                                            + i]
                                    output[outputIndex + o] += x * w
                                }
                            }
                        }
                    }
                }
            }
        }
        for p in 0..<pixels {
            for o in 0..<g.outputChannels {
                var value = output[p * g.outputChannels + o]
                if biasOrder == .last { value += bias?[o] ?? 0 }
                output[p * g.outputChannels + o] = clamp.apply(value)
            }
        }
    }
}
