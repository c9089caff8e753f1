extension Reference {
    /// RESIZE_BILINEAR on 8-bit NHWC tensors as TFLite's `ResizeBilinearInteger` (the twin of
    /// ``QuantizedResizeBilinearKernel``): source coordinates in 10-bit fixed
    /// point (`scale = ⌊(2^10 · in + out / 2) / out⌋`, or from `in − 1` / `out − 1` with align corners; half-pixel
    /// centers add `scale / 2 − 2^9`), four 20-bit weighted taps summed in 64 bits, then divided by 2^20 rounding
    /// half away from zero. Input and output share their quantization.
    @inlinable
    public static func quantizedResizeBilinear<T: QuantizedElement>(
        input: UnsafePointer<T>, batch: Int, inputHeight: Int, inputWidth: Int, channels: Int,
        output: UnsafeMutablePointer<T>, outputHeight: Int, outputWidth: Int, alignCorners: Bool,
        halfPixelCenters: Bool
    ) {
        func scale(_ input: Int, _ output: Int) -> Int64 {
            if alignCorners && output > 1 {
                return (Int64(1 << 10) * Int64(input - 1) + Int64(output - 1) / 2) / Int64(output - 1)
            }
            return (Int64(1 << 10) * Int64(input) + Int64(output / 2)) / Int64(output)
        }
        func interpolation(_ value: Int, _ scale: Int64, _ size: Int) -> (scaled: Int64, lower: Int, upper: Int) {
            let scaled = halfPixelCenters ? Int64(value) * scale + scale / 2 - (1 << 9) : Int64(value) * scale
            let lower = max(Int(scaled / (1 << 10)), 0)
            let upper = min(Int((scaled + (1 << 10) - 1) / (1 << 10)), size - 1)
            return (scaled, lower, upper)
        }
        let heightScale = scale(inputHeight, outputHeight)
        let widthScale = scale(inputWidth, outputWidth)
        for b in 0..<batch {
            for y in 0..<outputHeight {
                let (iy, y0, y1) = interpolation(y, heightScale, inputHeight)
                let dy = iy - (Int64(y0) << 10)
                for x in 0..<outputWidth {
                    let (ix, x0, x1) = interpolation(x, widthScale, inputWidth)
                    let dx = ix - (Int64(x0) << 10)
                    let p00 = input + ((b * inputHeight + y0) * inputWidth + x0) * channels
                    let p10 = input + ((b * inputHeight + y1) * inputWidth + x0) * channels
                    let p01 = input + ((b * inputHeight + y0) * inputWidth + x1) * channels
                    let p11 = input + ((b * inputHeight + y1) * inputWidth + x1) * channels
                    let out = output + ((b * outputHeight + y) * outputWidth + x) * channels
                    for c in 0..<channels {
                        let sum =
                            Int64(p00[c]) * ((1 << 10) - dy) * ((1 << 10) - dx) + Int64(p10[c]) * dy * ((1 << 10) - dx)
                            + Int64(p01[c]) * ((1 << 10) - dy) * dx + Int64(p11[c]) * dy * dx
                        let rounded = (sum + (sum > 0 ? 1 << 19 : -(1 << 19))) / (1 << 20)
                        out[c] = T(truncatingIfNeeded: rounded)
                    }
                }
            }
        }
    }
}
