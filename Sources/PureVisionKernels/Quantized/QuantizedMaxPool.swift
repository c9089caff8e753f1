extension Quantized {
    /// MAX_POOL_2D on 8-bit NHWC: the largest in-bounds value of each window, clamped to `range` (the type's minimum,
    /// clamped, when a window misses the input). Each output pixel's channels are kept in the output row itself
    /// while the window's taps are visited, so the inner loop runs over contiguous channels and vectorizes; the maximum
    /// of 8-bit values is the same in any order. Output rows are split over `pool`'s threads.
    /// ``Reference/quantizedMaxPool(geometry:input:output:range:)`` is its twin.
    @inlinable
    public static func maxPool<T: QuantizedElement>(
        geometry g: Pool2DGeometry, input: UnsafePointer<T>, output: UnsafeMutablePointer<T>, range: QuantizedRange,
        pool: ThreadPool = .serial
    ) {
        let rowWork = max(1, g.outputWidth * g.filterHeight * g.filterWidth * g.channels)
        pool.parallelRanges(
            g.batch * g.outputHeight, minimumChunk: max(1, poolingChunkWork / rowWork),
            QuantizedMaxPoolRows(geometry: g, input: input, output: output, range: range))
    }

    /// Window taps times channels below which a share of a pooling is not handed to another thread.
    @usableFromInline static let poolingChunkWork = 1 << 15
}

/// Output rows (flattened over batch and outputHeight) of ``Quantized/maxPool(geometry:input:output:range:pool:)``.
@usableFromInline
struct QuantizedMaxPoolRows<T: QuantizedElement>: ParallelRangeBody {
    @usableFromInline let geometry: Pool2DGeometry
    @usableFromInline let input: UnsafePointer<T>
    @usableFromInline let output: UnsafeMutablePointer<T>
    @usableFromInline let range: QuantizedRange

    @inlinable
    init(geometry: Pool2DGeometry, input: UnsafePointer<T>, output: UnsafeMutablePointer<T>, range: QuantizedRange) {
        self.geometry = geometry
        self.input = input
        self.output = output
        self.range = range
    }

    @inlinable
    func run(range rowRange: Range<Int>) {
        let g = geometry
        let channels = g.channels
        let (lower, upper) = (T(clamping: range.lower), T(clamping: range.upper))
        for row in rowRange {
            let b = row / g.outputHeight
            let rows = g.rowWindow(row % g.outputHeight)
            for ox in 0..<g.outputWidth {
                let columns = g.columnWindow(ox)
                let out = output + (row * g.outputWidth + ox) * channels
                out.update(repeating: T.min, count: channels)
                for y in rows.start..<rows.end {
                    for x in columns.start..<columns.end {
                        let tap = input + ((b * g.inputHeight + y) * g.inputWidth + x) * channels
                        for c in 0..<channels { out[c] = Swift.max(out[c], tap[c]) }
                    }
                }
                for c in 0..<channels { out[c] = min(max(out[c], lower), upper) }
            }
        }
    }
}
