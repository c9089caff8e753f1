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
        geometry depthwise: DepthwiseConv2DGeometry,
        input: UnsafePointer<Float>, filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        output: UnsafeMutablePointer<Float>, clamp: ClampRange, arithmetic: Arithmetic = .liteRT
    ) {
        precondition(depthwise.isValid, "depthwiseConv2D: invalid geometry \(depthwise)")
        let g = depthwise.convolution
        let fused = arithmetic == .xnnpack
        g.forEachOutput { b, oy, ox, c, outputIndex in
            let inputChannel = c / depthwise.depthMultiplier
            var sum: Float = bias?[c] ?? 0
            g.forEachTap(b, oy, ox, columnsFirst: fused) { ky, kx, pixel in
                let x = input[pixel * g.inputChannels + inputChannel]
                let w = filter[(ky * g.window.kernelWidth + kx) * g.outputChannels + c]
                if fused { sum = sum.addingProduct(x, w) } else { sum += x * w }
            }
            output[outputIndex] = clamp.apply(sum)
        }
    }
}
