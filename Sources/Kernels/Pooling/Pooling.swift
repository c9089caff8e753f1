/// Optimized 2-D max and average pooling over NHWC data (twins of ``Reference/maxPool2D(geometry:input:output:clamp:)``
/// and ``Reference/averagePool2D(geometry:input:output:clamp:)``, same results).
///
/// Each output pixel is computed with the channel loop innermost (contiguous, so it vectorizes) over the window's
/// in-bounds taps, and clamped while still in L1; output rows are split over the pool's threads.
public enum Pooling {
    /// Max pooling: `output` (`[batch, outputHeight, outputWidth, channels]`) gets the clamped maximum of each
    /// window's in-bounds values of `input` (`[batch, inputHeight, inputWidth, channels]`). No overlap allowed.
    public static func maxPool2D(
        geometry: Pool2DGeometry, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        clamp: ClampRange, pool: ThreadPool
    ) {
        precondition(geometry.isValid, "Pooling.maxPool2D: invalid geometry \(geometry)")
        forEachOutputPixel(geometry: geometry, pool: pool) { row, ox, rows, columns in
            let channels = geometry.channels
            let out = output + (row * geometry.outputWidth + ox) * channels
            out.update(repeating: -.greatestFiniteMagnitude, count: channels)
            let image = input + (row / geometry.outputHeight) * geometry.inputHeight * geometry.inputWidth * channels
            for iy in rows.start..<rows.end {
                for ix in columns.start..<columns.end {
                    let pixel = image + (iy * geometry.inputWidth + ix) * channels
                    for c in 0..<channels { out[c] = max(out[c], pixel[c]) }
                }
            }
            let lower = clamp.lower
            let upper = clamp.upper
            for c in 0..<channels { out[c] = min(max(out[c], lower), upper) }
        }
    }

    /// Average pooling: `output` (`[batch, outputHeight, outputWidth, channels]`) gets the clamped mean of each
    /// window's in-bounds values of `input` (`[batch, inputHeight, inputWidth, channels]`); padding is not
    /// counted. A window that misses the input yields `clamp(0)`. No overlap allowed.
    public static func averagePool2D(
        geometry: Pool2DGeometry, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        clamp: ClampRange, pool: ThreadPool
    ) {
        precondition(geometry.isValid, "Pooling.averagePool2D: invalid geometry \(geometry)")
        forEachOutputPixel(geometry: geometry, pool: pool) { row, ox, rows, columns in
            let channels = geometry.channels
            let out = output + (row * geometry.outputWidth + ox) * channels
            out.update(repeating: 0, count: channels)
            let image = input + (row / geometry.outputHeight) * geometry.inputHeight * geometry.inputWidth * channels
            for iy in rows.start..<rows.end {
                for ix in columns.start..<columns.end {
                    let pixel = image + (iy * geometry.inputWidth + ix) * channels
                    for c in 0..<channels { out[c] += pixel[c] }
                }
            }
            let count = Float((rows.end - rows.start) * (columns.end - columns.start))
            let lower = clamp.lower
            let upper = clamp.upper
            if count == 0 {
                out.update(repeating: min(max(0, lower), upper), count: channels)
            } else {
                for c in 0..<channels { out[c] = min(max(out[c] / count, lower), upper) }
            }
        }
    }

    /// Calls `body(row, ox, rowWindow, columnWindow)` for every output pixel, where `row` runs over
    /// `batch · outputHeight` (split over the pool's threads) and the windows are the in-bounds input ranges.
    private static func forEachOutputPixel(
        geometry: Pool2DGeometry, pool: ThreadPool,
        _ body: (Int, Int, (start: Int, end: Int), (start: Int, end: Int)) -> Void
    ) {
        pool.parallelRanges(geometry.batch * geometry.outputHeight) { rowRange in
            for row in rowRange {
                let rows = geometry.rowWindow(row % geometry.outputHeight)
                for ox in 0..<geometry.outputWidth {
                    body(row, ox, rows, geometry.columnWindow(ox))
                }
            }
        }
    }
}
