/// Optimized 2-D max and average pooling over NHWC data (twins of ``Reference/maxPool2D(geometry:input:output:clamp:)``
/// and ``Reference/averagePool2D(geometry:input:output:clamp:arithmetic:)`` with XNNPACK's arithmetic, same results:
/// a window over the whole input is summed as XNNPACK's global average pooling).
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
    /// counted. A window that misses the input yields `clamp(0)`; one window over the whole input is XNNPACK's global
    /// average pooling (7 rows per pass, then `× 1/n`). No overlap allowed.
    public static func averagePool2D(
        geometry: Pool2DGeometry, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        clamp: ClampRange, pool: ThreadPool
    ) {
        precondition(geometry.isValid, "Pooling.averagePool2D: invalid geometry \(geometry)")
        if geometry.isGlobal {
            // One window over the whole input: XNNPACK's global average pooling, as MEAN over H and W computes it.
            let g = geometry
            Reduction.globalAverage(
                input: input, batch: g.batch, pixels: g.inputHeight * g.inputWidth, channels: g.channels,
                output: output, pool: pool)
            for index in 0..<(g.batch * g.channels) { output[index] = clamp.apply(output[index]) }
            return
        }
        pool.parallelRanges(
            geometry.batch * geometry.outputHeight,
            Rows<AverageWindow>(geometry: geometry, input: input, output: output, clamp: clamp))
    }

    /// Output rows (flattened over batch and outputHeight), in ranges: every pixel of a row from its window's
    /// in-bounds taps, eight channels at a time in locals (which the compiler keeps in vector registers) so that
    /// each output is written once.
    private struct Rows<Window: PoolingWindow>: ParallelRangeBody {
        let geometry: Pool2DGeometry
        let input: UnsafePointer<Float>
        let output: UnsafeMutablePointer<Float>
        let clamp: ClampRange

        func run(range: Range<Int>) {
            let g = geometry
            let channels = g.channels
            let inputRowFloats = g.inputWidth * channels
            for row in range {
                let rows = g.rowWindow(row % g.outputHeight)
                let image = input + (row / g.outputHeight) * g.inputHeight * inputRowFloats
                for ox in 0..<g.outputWidth {
                    let columns = g.columnWindow(ox)
                    let out = output + (row * g.outputWidth + ox) * channels
                    let window = Window(
                        taps: (rows.end - rows.start) * (columns.end - columns.start), clamp: clamp)
                    let corner = image + rows.start * inputRowFloats + columns.start * channels
                    var c = 0
                    while c + 8 <= channels {
                        var a0 = Window.initial
                        var a1 = Window.initial
                        var a2 = Window.initial
                        var a3 = Window.initial
                        var a4 = Window.initial
                        var a5 = Window.initial
                        var a6 = Window.initial
                        var a7 = Window.initial
                        var tapRow = corner + c
                        for _ in rows.start..<rows.end {
                            var tap = tapRow
                            for _ in columns.start..<columns.end {
                                a0 = Window.combine(a0, tap[0])
                                a1 = Window.combine(a1, tap[1])
                                a2 = Window.combine(a2, tap[2])
                                a3 = Window.combine(a3, tap[3])
                                a4 = Window.combine(a4, tap[4])
                                a5 = Window.combine(a5, tap[5])
                                a6 = Window.combine(a6, tap[6])
                                a7 = Window.combine(a7, tap[7])
                                tap += channels
                            }
                            tapRow += inputRowFloats
                        }
                        out[c] = window.finish(a0)
                        out[c + 1] = window.finish(a1)
                        out[c + 2] = window.finish(a2)
                        out[c + 3] = window.finish(a3)
                        out[c + 4] = window.finish(a4)
                        out[c + 5] = window.finish(a5)
                        out[c + 6] = window.finish(a6)
                        out[c + 7] = window.finish(a7)
                        c += 8
                    }
                    while c < channels {
                        var a = Window.initial
                        var tapRow = corner + c
                        for _ in rows.start..<rows.end {
                            var tap = tapRow
                            for _ in columns.start..<columns.end {
                                a = Window.combine(a, tap[0])
                                tap += channels
                            }
                            tapRow += inputRowFloats
                        }
                        out[c] = window.finish(a)
                        c += 1
                    }
                }
            }
        }
    }
}

/// How one pooling kind starts, accumulates and finishes a window, specialised into the row loop.
private protocol PoolingWindow {
    static var initial: Float { get }
    static func combine(_ accumulator: Float, _ value: Float) -> Float
    /// Prepares to finish the pixels of a window with `taps` in-bounds taps.
    init(taps: Int, clamp: ClampRange)
    /// Turns one channel's accumulator into its clamped output.
    func finish(_ accumulator: Float) -> Float
}

private struct MaxWindow: PoolingWindow {
    let lower: Float
    let upper: Float

    init(taps: Int, clamp: ClampRange) {
        lower = clamp.lower
        upper = clamp.upper
    }

    static var initial: Float { -.greatestFiniteMagnitude }
    @inline(__always) static func combine(_ accumulator: Float, _ value: Float) -> Float { max(accumulator, value) }
    @inline(__always) func finish(_ accumulator: Float) -> Float { min(max(accumulator, lower), upper) }
}

/// Padding is not counted; a window that misses the input yields `clamp(0)`.
private struct AverageWindow: PoolingWindow {
    let lower: Float
    let upper: Float
    /// The tap count as a float; 1 for a window that misses the input, whose sum 0 then stays 0.
    let divisor: Float

    init(taps: Int, clamp: ClampRange) {
        lower = clamp.lower
        upper = clamp.upper
        divisor = Float(max(taps, 1))
    }

    static var initial: Float { 0 }
    @inline(__always) static func combine(_ accumulator: Float, _ value: Float) -> Float { accumulator + value }
    @inline(__always) func finish(_ accumulator: Float) -> Float { min(max(accumulator / divisor, lower), upper) }
}
