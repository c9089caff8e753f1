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
        pool.parallelRanges(
            geometry.batch * geometry.outputHeight,
            Rows<MaxWindow>(geometry: geometry, input: input, output: output, clamp: clamp))
    }

    /// Average pooling: `output` (`[batch, outputHeight, outputWidth, channels]`) gets the clamped mean of each
    /// window's in-bounds values of `input` (`[batch, inputHeight, inputWidth, channels]`); padding is not
    /// counted. A window that misses the input yields `clamp(0)`. No overlap allowed.
    public static func averagePool2D(
        geometry: Pool2DGeometry, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        clamp: ClampRange, pool: ThreadPool
    ) {
        precondition(geometry.isValid, "Pooling.averagePool2D: invalid geometry \(geometry)")
        pool.parallelRanges(
            geometry.batch * geometry.outputHeight,
            Rows<AverageWindow>(geometry: geometry, input: input, output: output, clamp: clamp))
    }

    /// Output rows (flattened over batch and outputHeight), in ranges: every pixel of a row from its window's
    /// in-bounds taps.
    private struct Rows<Window: PoolingWindow>: ParallelRangeBody {
        let geometry: Pool2DGeometry
        let input: UnsafePointer<Float>
        let output: UnsafeMutablePointer<Float>
        let clamp: ClampRange

        func run(range: Range<Int>) {
            let g = geometry
            let channels = g.channels
            for row in range {
                let rows = g.rowWindow(row % g.outputHeight)
                let image = input + (row / g.outputHeight) * g.inputHeight * g.inputWidth * channels
                for ox in 0..<g.outputWidth {
                    let columns = g.columnWindow(ox)
                    let out = output + (row * g.outputWidth + ox) * channels
                    out.update(repeating: Window.initial, count: channels)
                    for iy in rows.start..<rows.end {
                        for ix in columns.start..<columns.end {
                            let pixel = image + (iy * g.inputWidth + ix) * channels
                            for c in 0..<channels { out[c] = Window.combine(out[c], pixel[c]) }
                        }
                    }
                    let count = (rows.end - rows.start) * (columns.end - columns.start)
                    Window.finish(out, channels: channels, count: count, lower: clamp.lower, upper: clamp.upper)
                }
            }
        }
    }
}

/// How one pooling kind starts, accumulates and finishes a window, specialised into the row loop.
private protocol PoolingWindow {
    static var initial: Float { get }
    static func combine(_ accumulator: Float, _ value: Float) -> Float
    /// Turns the accumulators of one pixel, over `count` in-bounds taps, into clamped outputs.
    static func finish(_ out: UnsafeMutablePointer<Float>, channels: Int, count: Int, lower: Float, upper: Float)
}

private enum MaxWindow: PoolingWindow {
    static var initial: Float { -.greatestFiniteMagnitude }
    @inline(__always) static func combine(_ accumulator: Float, _ value: Float) -> Float { max(accumulator, value) }
    @inline(__always)
    static func finish(_ out: UnsafeMutablePointer<Float>, channels: Int, count: Int, lower: Float, upper: Float) {
        for c in 0..<channels { out[c] = min(max(out[c], lower), upper) }
    }
}

/// Padding is not counted; a window that misses the input yields `clamp(0)`.
private enum AverageWindow: PoolingWindow {
    static var initial: Float { 0 }
    @inline(__always) static func combine(_ accumulator: Float, _ value: Float) -> Float { accumulator + value }
    @inline(__always)
    static func finish(_ out: UnsafeMutablePointer<Float>, channels: Int, count: Int, lower: Float, upper: Float) {
        if count == 0 {
            out.update(repeating: min(max(0, lower), upper), count: channels)
            return
        }
        let divisor = Float(count)
        for c in 0..<channels { out[c] = min(max(out[c] / divisor, lower), upper) }
    }
}
