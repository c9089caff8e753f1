/// RESIZE_BILINEAR over float32 NHWC with XNNPACK's arithmetic (``Reference/Arithmetic/xnnpack``), which
/// MediaPipe runs.
///
/// Per axis, `scale = alignCorners && out > 1 ? (in - 1) / (out - 1) : in / out` (in float), as in TFLite. With
/// half-pixel centres, output coordinate `o` maps to `s = o · scale + (0.5 · scale − 0.5)`, clamped to
/// `[0, in − 1]`; otherwise to `s = o · scale`. It reads index `lower = ⌊s⌋` and `upper = min(lower + 1, in − 1)`
/// with weight `α = s − lower`, and interpolates `top = tl + (tr − tl)·αx`, `bottom = bl + (br − bl)·αx`, then
/// `top + (bottom − top)·αy`, every operation rounded. Input is `[batch, inputHeight, inputWidth, channels]`,
/// output `[batch, outputHeight, outputWidth, channels]`.
public enum ResizeBilinear {
    /// Resizes `input` into `output`, splitting output rows over `pool`. Allocates nothing.
    public static func run(
        input: UnsafePointer<Float>, batch: Int, inputHeight: Int, inputWidth: Int, channels: Int,
        output: UnsafeMutablePointer<Float>, outputHeight: Int, outputWidth: Int, alignCorners: Bool,
        halfPixelCenters: Bool, pool: ThreadPool
    ) {
        precondition(inputHeight > 0 && inputWidth > 0 && outputHeight > 0 && outputWidth > 0, "empty image")
        let rowCount = batch * outputHeight
        let pixelsPerRow = outputWidth * channels
        pool.parallelRanges(
            rowCount, minimumChunk: max(1, 8_192 / max(1, pixelsPerRow)),
            Rows(
                input: input, inputHeight: inputHeight, inputWidth: inputWidth, channels: channels, output: output,
                outputHeight: outputHeight, outputWidth: outputWidth,
                rows: Axis(
                    input: inputHeight, output: outputHeight, alignCorners: alignCorners,
                    halfPixelCenters: halfPixelCenters),
                columns: Axis(
                    input: inputWidth, output: outputWidth, alignCorners: alignCorners,
                    halfPixelCenters: halfPixelCenters)))
    }

    /// XNNPACK's source coordinates along one axis.
    @usableFromInline
    struct Axis: Sendable {
        let scale: Float
        let offset: Float
        let halfPixelCenters: Bool
        let last: Int

        @usableFromInline
        init(input: Int, output: Int, alignCorners: Bool, halfPixelCenters: Bool) {
            scale = ResizeBilinear.scale(input: input, output: output, alignCorners: alignCorners)
            offset = 0.5 * scale - 0.5
            self.halfPixelCenters = halfPixelCenters
            last = input - 1
        }

        /// The two source indices of output index `o` and the weight of the second.
        @usableFromInline @inline(__always)
        func source(_ o: Int) -> (lower: Int, upper: Int, alpha: Float) {
            var coordinate = Float(o) * scale
            if halfPixelCenters { coordinate = min(max(coordinate + offset, 0), Float(last)) }
            let lower = Int(coordinate)
            return (lower, min(lower + 1, last), coordinate - Float(lower))
        }
    }

    /// XNNPACK's interpolation of one value from its four corners.
    @usableFromInline @inline(__always)
    static func interpolate(
        _ topLeft: Float, _ topRight: Float, _ bottomLeft: Float, _ bottomRight: Float, alphaX: Float, alphaY: Float
    ) -> Float {
        let top = topLeft + (topRight - topLeft) * alphaX
        let bottom = bottomLeft + (bottomRight - bottomLeft) * alphaX
        return top + (bottom - top) * alphaY
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
        let rows: Axis
        let columns: Axis

        func run(range outputRows: Range<Int>) {
            let pixelsPerRow = outputWidth * channels
            for row in outputRows {
                let b = row / outputHeight
                let (y0, y1, alphaY) = rows.source(row % outputHeight)
                let top = input + (b * inputHeight + y0) * inputWidth * channels
                let bottom = input + (b * inputHeight + y1) * inputWidth * channels
                var destination = output + row * pixelsPerRow
                for x in 0..<outputWidth {
                    let (x0, x1, alphaX) = columns.source(x)
                    let (p00, p01) = (top + x0 * channels, top + x1 * channels)
                    let (p10, p11) = (bottom + x0 * channels, bottom + x1 * channels)
                    for i in 0..<channels {
                        destination[i] = ResizeBilinear.interpolate(
                            p00[i], p01[i], p10[i], p11[i], alphaX: alphaX, alphaY: alphaY)
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
