#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// OpenCV 3.4's `cv::resize(…, INTER_LINEAR)` of a float image, the way MediaPipe resizes confidence masks.
///
/// Per output column `dx`: `fx = Float((dx + 0.5)·scale − 0.5)` with `scale = 1 / (out / in)` in Double,
/// `sx = ⌊fx⌋`, `fx −= sx`; left of the first column `sx = 0, fx = 0`, at or right of the last `sx = in − 1, fx = 0`.
/// Rows alike, except that the fraction is kept and both rows are clipped to the image. A row of the result is
/// `S[sx]·(1 − fx) + S[sx + 1]·fx` (Float, multiply then add) on the two source rows, which are then combined the
/// same way with the row fractions. The plan holds the per-column and per-row taps. (OpenCV switches an exact 2×
/// down-scale to INTER_AREA, a 2 × 2 mean; the shared MediaPipe notes measured both within 1.2e-7 of each other on
/// masks, so this plan serves that case too.)
struct LinearResizePlan: Sendable {
    let inputWidth: Int
    let inputHeight: Int
    let outputWidth: Int
    let outputHeight: Int
    private let columns: [Int]
    private let columnWeights: [(Float, Float)]
    private let rows: [(Int, Int)]
    private let rowWeights: [(Float, Float)]

    init(inputWidth: Int, inputHeight: Int, outputWidth: Int, outputHeight: Int) {
        self.inputWidth = inputWidth
        self.inputHeight = inputHeight
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
        let scaleX = 1 / (Double(outputWidth) / Double(inputWidth))
        let scaleY = 1 / (Double(outputHeight) / Double(inputHeight))
        var columns: [Int] = []
        var columnWeights: [(Float, Float)] = []
        for dx in 0..<outputWidth {
            var fx = Float((Double(dx) + 0.5) * scaleX - 0.5)
            var sx = Int(fx.rounded(.down))
            fx -= Float(sx)
            if sx < 0 { (sx, fx) = (0, 0) }
            if sx >= inputWidth - 1 { (sx, fx) = (inputWidth - 1, 0) }
            columns.append(sx)
            columnWeights.append((1 - fx, fx))
        }
        var rows: [(Int, Int)] = []
        var rowWeights: [(Float, Float)] = []
        for dy in 0..<outputHeight {
            var fy = Float((Double(dy) + 0.5) * scaleY - 0.5)
            let sy = Int(fy.rounded(.down))
            fy -= Float(sy)
            rows.append((min(max(sy, 0), inputHeight - 1), min(max(sy + 1, 0), inputHeight - 1)))
            rowWeights.append((1 - fy, fy))
        }
        self.columns = columns
        self.columnWeights = columnWeights
        self.rows = rows
        self.rowWeights = rowWeights
    }

    /// Resizes channel `channel` of `source` (`inputHeight × inputWidth × channels`, interleaved) into `output`
    /// (`outputHeight × outputWidth`), output rows `rows` only (all by default); `rowBuffers` holds
    /// `2 · outputWidth` floats of scratch.
    func resize(
        _ source: UnsafePointer<Float>, channels: Int, channel: Int, rows outputRows: Range<Int>? = nil,
        into output: UnsafeMutablePointer<Float>, rowBuffers: UnsafeMutablePointer<Float>
    ) {
        let upper = rowBuffers
        let lower = rowBuffers + outputWidth
        var cachedRows = (-1, -1)
        for dy in outputRows ?? 0..<outputHeight {
            let (r0, r1) = rows[dy]
            if cachedRows != (r0, r1) {
                horizontal(source + r0 * inputWidth * channels + channel, channels: channels, into: upper)
                horizontal(source + r1 * inputWidth * channels + channel, channels: channels, into: lower)
                cachedRows = (r0, r1)
            }
            let (b0, b1) = rowWeights[dy]
            let destination = output + dy * outputWidth
            for dx in 0..<outputWidth {
                let top = upper[dx] * b0
                destination[dx] = top + lower[dx] * b1
            }
        }
    }

    private func horizontal(_ row: UnsafePointer<Float>, channels: Int, into destination: UnsafeMutablePointer<Float>) {
        let last = inputWidth - 1
        for dx in 0..<outputWidth {
            let sx = columns[dx]
            let (a0, a1) = columnWeights[dx]
            let left = row[sx * channels] * a0
            destination[dx] = sx < last ? left + row[(sx + 1) * channels] * a1 : left
        }
    }
}

/// MediaPipe's category-mask sampling (`tensors_to_segmentation_calculator.cc`, `ProcessForCategoryMaskCpu`):
/// align-corners bilinear interpolation of the raw tensor at every output pixel.
///
/// `scale = (in − 1) / Float(out − 1)`; for output row `y`, `p = Float(y)·scale`, `y0 = max(⌊p⌋, 0)`,
/// `y1 = min(⌈p⌉, in − 1)`, `t = clamp(p − y0, 0, 1)` (columns alike). The value is
/// `lerp(lerp(v(x0,y0), v(x0,y1), ty), lerp(v(x1,y0), v(x1,y1), ty), tx)` with `lerp(a, b, t) = a + (b − a)·t` in
/// Float. An output extent of 1 (where MediaPipe divides by zero) samples row or column 0.
struct AlignCornersPlan: Sendable {
    let outputWidth: Int
    let outputHeight: Int
    let columns: [(Int, Int, Float)]
    let rows: [(Int, Int, Float)]

    init(inputWidth: Int, inputHeight: Int, outputWidth: Int, outputHeight: Int) {
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
        columns = Self.taps(input: inputWidth, output: outputWidth)
        rows = Self.taps(input: inputHeight, output: outputHeight)
    }

    private static func taps(input: Int, output: Int) -> [(Int, Int, Float)] {
        let scale: Float = output > 1 ? Float(input - 1) / Float(output - 1) : 0
        return (0..<output).map { position in
            let p = Float(position) * scale
            let first = Int(max(p.rounded(.down), 0))
            let second = Int(min(p.rounded(.up), Float(input - 1)))
            let t = max(min(p - Float(first), 1), 0)
            return (first, second, t)
        }
    }
}
