/// RESIZE_BILINEAR over float32 NHWC with TFLite's coordinate mapping.
///
/// Per axis, `scale = alignCorners && out > 1 ? (in - 1) / (out - 1) : in / out` (in float). Output coordinate
/// `o` maps to `s = halfPixelCenters ? (o + 0.5) * scale - 0.5 : o * scale`, read from rows `lower = max(⌊s⌋, 0)`
/// and `upper = min(⌈s⌉, in - 1)` with weight `s - lower` on the upper one. Input is
/// `[batch, inputHeight, inputWidth, channels]`, output `[batch, outputHeight, outputWidth, channels]`.
public enum ResizeBilinear {
    /// Resizes `input` into `output`, splitting output rows over `pool`.
    public static func run(
        input: UnsafePointer<Float>, batch: Int, inputHeight: Int, inputWidth: Int, channels: Int,
        output: UnsafeMutablePointer<Float>, outputHeight: Int, outputWidth: Int, alignCorners: Bool,
        halfPixelCenters: Bool, pool: ThreadPool
    ) {
        precondition(inputHeight > 0 && inputWidth > 0 && outputHeight > 0 && outputWidth > 0, "empty image")
        let heightScale = scale(input: inputHeight, output: outputHeight, alignCorners: alignCorners)
        let widthScale = scale(input: inputWidth, output: outputWidth, alignCorners: alignCorners)
        let rowCount = batch * outputHeight
        let pixelsPerRow = outputWidth * channels
        pool.parallelRanges(rowCount, minimumChunk: max(1, 8_192 / max(1, pixelsPerRow))) { rows in
            for row in rows {
                let b = row / outputHeight
                let y = row % outputHeight
                let (inY, y0, y1) = source(
                    y, scale: heightScale, halfPixelCenters: halfPixelCenters, inputSize: inputHeight)
                let dy = inY - Float(y0)
                let top = input + (b * inputHeight + y0) * inputWidth * channels
                let bottom = input + (b * inputHeight + y1) * inputWidth * channels
                var destination = output + row * pixelsPerRow
                for x in 0..<outputWidth {
                    let (inX, x0, x1) = source(
                        x, scale: widthScale, halfPixelCenters: halfPixelCenters, inputSize: inputWidth)
                    let dx = inX - Float(x0)
                    let w00 = (1 - dy) * (1 - dx)
                    let w10 = dy * (1 - dx)
                    let w01 = (1 - dy) * dx
                    let w11 = dy * dx
                    let p00 = top + x0 * channels
                    let p10 = bottom + x0 * channels
                    let p01 = top + x1 * channels
                    let p11 = bottom + x1 * channels
                    for i in 0..<channels {
                        destination[i] = p00[i] * w00 + p10[i] * w10 + p01[i] * w01 + p11[i] * w11
                    }
                    destination += channels
                }
            }
        }
    }

    /// TFLite's per-axis scale from input to output coordinates.
    static func scale(input: Int, output: Int, alignCorners: Bool) -> Float {
        if alignCorners && output > 1 { return Float(input - 1) / Float(output - 1) }
        return Float(input) / Float(output)
    }

    /// The source coordinate of output index `value` and the two input indices it interpolates between.
    @inline(__always)
    static func source(
        _ value: Int, scale: Float, halfPixelCenters: Bool, inputSize: Int
    ) -> (coordinate: Float, lower: Int, upper: Int) {
        let coordinate = halfPixelCenters ? (Float(value) + 0.5) * scale - 0.5 : Float(value) * scale
        let lower = max(Int(coordinate.rounded(.down)), 0)
        let upper = min(Int(coordinate.rounded(.up)), inputSize - 1)
        return (coordinate, lower, upper)
    }
}
