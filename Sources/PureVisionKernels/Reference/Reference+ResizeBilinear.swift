extension Reference {
    /// Scalar twin of `ResizeBilinear.run`, following TFLite's reference kernel formula exactly (see there).
    public static func resizeBilinear(
        input: UnsafePointer<Float>, batch: Int, inputHeight: Int, inputWidth: Int, channels: Int,
        output: UnsafeMutablePointer<Float>, outputHeight: Int, outputWidth: Int, alignCorners: Bool,
        halfPixelCenters: Bool
    ) {
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
                        func at(_ row: Int, _ column: Int) -> Float {
                            input[((b * inputHeight + row) * inputWidth + column) * channels + c]
                        }
                        let dy = inY - Float(y0)
                        let dx = inX - Float(x0)
                        let value =
                            at(y0, x0) * (1 - dy) * (1 - dx) + at(y1, x0) * dy * (1 - dx)
                            + at(y0, x1) * (1 - dy) * dx + at(y1, x1) * dy * dx
                        output[((b * outputHeight + y) * outputWidth + x) * channels + c] = value
                    }
                }
            }
        }
    }
}
