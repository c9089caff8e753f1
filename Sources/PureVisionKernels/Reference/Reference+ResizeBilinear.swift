extension Reference {
    /// Scalar twin of `ResizeBilinear.run` with `arithmetic: .xnnpack` (its coordinates and interpolation, see
    /// there); with `.liteRT`, TFLite's reference kernel: `lower = max(⌊s⌋, 0)`, `upper = min(⌈s⌉, in − 1)` from
    /// `s = (o + 0.5) · scale − 0.5` (half-pixel) or `o · scale`, and the four corners weighted and summed.
    public static func resizeBilinear(
        input: UnsafePointer<Float>, batch: Int, inputHeight: Int, inputWidth: Int, channels: Int,
        output: UnsafeMutablePointer<Float>, outputHeight: Int, outputWidth: Int, alignCorners: Bool,
        halfPixelCenters: Bool, arithmetic: Arithmetic = .liteRT
    ) {
        func at(_ b: Int, _ row: Int, _ column: Int, _ c: Int) -> Float {
            input[((b * inputHeight + row) * inputWidth + column) * channels + c]
        }
        if arithmetic == .xnnpack {
            let rows = ResizeBilinear.Axis(
                input: inputHeight, output: outputHeight, alignCorners: alignCorners, halfPixelCenters: halfPixelCenters
            )
            let columns = ResizeBilinear.Axis(
                input: inputWidth, output: outputWidth, alignCorners: alignCorners, halfPixelCenters: halfPixelCenters)
            for b in 0..<batch {
                for y in 0..<outputHeight {
                    let (top, bottom, alphaY) = rows.source(y)
                    for x in 0..<outputWidth {
                        let (left, right, alphaX) = columns.source(x)
                        for c in 0..<channels {
                            output[((b * outputHeight + y) * outputWidth + x) * channels + c] =
                                ResizeBilinear.interpolate(
                                    at(b, top, left, c), at(b, top, right, c), at(b, bottom, left, c),
                                    at(b, bottom, right, c), alphaX: alphaX, alphaY: alphaY)
                        }
                    }
                }
            }
            return
        }
        let heightScale = ResizeBilinear.scale(
            input: inputHeight, output: outputHeight, alignCorners: alignCorners)
        let widthScale = ResizeBilinear.scale(input: inputWidth, output: outputWidth, alignCorners: alignCorners)
        for b in 0..<batch {
            for y in 0..<outputHeight {
                let (inY, y0, y1) = ResizeBilinear.source(
                    y, scale: heightScale, halfPixelCenters: halfPixelCenters, inputSize: inputHeight)
                for x in 0..<outputWidth {
                    let (inX, x0, x1) = ResizeBilinear.source(
                        x, scale: widthScale, halfPixelCenters: halfPixelCenters, inputSize: inputWidth)
                    for c in 0..<channels {
                        let dy = inY - Float(y0)
                        let dx = inX - Float(x0)
                        let value =
                            at(b, y0, x0, c) * (1 - dy) * (1 - dx) + at(b, y1, x0, c) * dy * (1 - dx)
                            + at(b, y0, x1, c) * (1 - dy) * dx + at(b, y1, x1, c) * dy * dx
                        output[((b * outputHeight + y) * outputWidth + x) * channels + c] = value
                    }
                }
            }
        }
    }
}
