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
        let exactDouble = !alignCorners && !halfPixelCenters && outputHeight == 2 * inputHeight
            && outputWidth == 2 * inputWidth
        pool.parallelRanges(
            rowCount, minimumChunk: max(1, 8_192 / max(1, pixelsPerRow)),
            Rows(
                input: input, inputHeight: inputHeight, inputWidth: inputWidth, channels: channels, output: output,
                outputHeight: outputHeight, outputWidth: outputWidth, heightScale: heightScale,
                widthScale: widthScale, halfPixelCenters: halfPixelCenters, exactDouble: exactDouble))
    }

    /// Output rows (flattened over batch and outputHeight), in ranges.
    private struct Rows: ParallelRangeBody {
        let input: UnsafePointer<Float>
        let inputHeight: Int
        let inputWidth: Int
        let channels: Int
        let output: UnsafeMutablePointer<Float>
        let outputHeight: Int
        let outputWidth: Int
        let heightScale: Float
        let widthScale: Float
        let halfPixelCenters: Bool
        /// Exact 2× upsampling without corner alignment or half-pixel centres (``upsampleRowByTwo``).
        let exactDouble: Bool

        func run(range rows: Range<Int>) {
            let pixelsPerRow = outputWidth * channels
            for row in rows {
                let b = row / outputHeight
                let y = row % outputHeight
                let destinationRow = output + row * pixelsPerRow
                if exactDouble {
                    ResizeBilinear.upsampleRowByTwo(
                        input: input + b * inputHeight * inputWidth * channels, inputHeight: inputHeight,
                        inputWidth: inputWidth, channels: channels, outputRow: y, output: destinationRow)
                    continue
                }
                let (inY, y0, y1) = ResizeBilinear.source(
                    y, scale: heightScale, halfPixelCenters: halfPixelCenters, inputSize: inputHeight)
                let dy = inY - Float(y0)
                let top = input + (b * inputHeight + y0) * inputWidth * channels
                let bottom = input + (b * inputHeight + y1) * inputWidth * channels
                var destination = destinationRow
                for x in 0..<outputWidth {
                    let (inX, x0, x1) = ResizeBilinear.source(
                        x, scale: widthScale, halfPixelCenters: halfPixelCenters, inputSize: inputWidth)
                    let dx = inX - Float(x0)
                    // TFLite's optimized kernel accumulates the four corners in this order, each product rounded
                    // before it is added; keeping the order keeps results bit-identical to it.
                    let w00 = (1 - dy) * (1 - dx)
                    let w01 = (1 - dy) * dx
                    let w10 = dy * (1 - dx)
                    let w11 = dy * dx
                    let p00 = top + x0 * channels
                    let p01 = top + x1 * channels
                    let p10 = bottom + x0 * channels
                    let p11 = bottom + x1 * channels
                    for i in 0..<channels {
                        var sum = p00[i] * w00
                        sum += p01[i] * w01
                        sum += p10[i] * w10
                        sum += p11[i] * w11
                        destination[i] = sum
                    }
                    destination += channels
                }
            }
        }
    }

    /// Exact 2× upsampling (no corner alignment, no half-pixel centres): output row `outputRow` from input rows
    /// `outputRow / 2` and the next one (clamped). Even output pixels copy or halve sums of neighbours; this is the
    /// specialised form TFLite's optimized kernel uses, and its rounding is reproduced exactly.
    @inline(__always)
    static func upsampleRowByTwo(
        input: UnsafePointer<Float>, inputHeight: Int, inputWidth: Int, channels: Int, outputRow: Int,
        output: UnsafeMutablePointer<Float>
    ) {
        let y0 = outputRow / 2
        let y1 = min(y0 + 1, inputHeight - 1)
        let isOddRow = outputRow % 2 == 1
        let top = input + y0 * inputWidth * channels
        let bottom = input + y1 * inputWidth * channels
        for x0 in 0..<inputWidth {
            let x1 = min(x0 + 1, inputWidth - 1)
            let left = output + 2 * x0 * channels
            let right = left + channels
            let a = top + x0 * channels
            let b = top + x1 * channels
            if isOddRow {
                let c = bottom + x0 * channels
                let d = bottom + x1 * channels
                for i in 0..<channels {
                    let leftValue = (a[i] + c[i]) / 2
                    left[i] = leftValue
                    right[i] = (leftValue + (b[i] + d[i]) / 2) / 2
                }
            } else {
                for i in 0..<channels {
                    left[i] = a[i]
                    right[i] = (a[i] + b[i]) / 2
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
