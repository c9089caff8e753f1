extension Quantized {
    /// AVERAGE_POOL_2D on 8-bit NHWC: the int32 sum of the in-bounds window divided by its element count, rounded
    /// half away from zero (`(sum ± count/2) / count`), clamped to `range`.
    ///
    /// Sums 16 channels at a time in vector lanes over the window's taps (contiguous bytes per tap), so a global pool
    /// over a 7 × 7 × 1280 input reads each tap's channels in one pass instead of one strided walk per channel. The
    /// work is cut into (output row, block of ``averagePoolChannelBlock`` channels) units split over `pool`'s threads,
    /// so a global pool, which has one output row, is shared out too. Integer sums are exact in any order:
    /// ``Reference/quantizedAveragePool(geometry:input:output:range:)`` is its twin.
    @inlinable
    public static func averagePool<T: QuantizedElement>(
        geometry g: Pool2DGeometry, input: UnsafePointer<T>, output: UnsafeMutablePointer<T>, range: QuantizedRange,
        pool: ThreadPool = .serial
    ) {
        let blocks = (g.channels + averagePoolChannelBlock - 1) / averagePoolChannelBlock
        let unitWork = max(1, g.outputWidth * g.filterHeight * g.filterWidth * min(g.channels, averagePoolChannelBlock))
        pool.parallelRanges(
            g.batch * g.outputHeight * blocks, minimumChunk: max(1, poolingChunkWork / unitWork),
            QuantizedAveragePoolUnits(geometry: g, input: input, output: output, range: range, blocks: blocks))
    }

    /// Channels of one unit of work of ``averagePool(geometry:input:output:range:pool:)``.
    @usableFromInline static let averagePoolChannelBlock = 64
}

/// Units (output row, channel block) of ``Quantized/averagePool(geometry:input:output:range:pool:)``.
@usableFromInline
struct QuantizedAveragePoolUnits<T: QuantizedElement>: ParallelRangeBody {
    @usableFromInline let geometry: Pool2DGeometry
    @usableFromInline let input: UnsafePointer<T>
    @usableFromInline let output: UnsafeMutablePointer<T>
    @usableFromInline let range: QuantizedRange
    /// Channel blocks per output row.
    @usableFromInline let blocks: Int

    @inlinable
    init(
        geometry: Pool2DGeometry, input: UnsafePointer<T>, output: UnsafeMutablePointer<T>, range: QuantizedRange,
        blocks: Int
    ) {
        self.geometry = geometry
        self.input = input
        self.output = output
        self.range = range
        self.blocks = blocks
    }

    @inlinable
    func run(range units: Range<Int>) {
        let g = geometry
        let channels = g.channels
        for unit in units {
            let row = unit / blocks
            let firstChannel = (unit % blocks) * Quantized.averagePoolChannelBlock
            let lastChannel = min(channels, firstChannel + Quantized.averagePoolChannelBlock)
            let b = row / g.outputHeight
            let rows = g.rowWindow(row % g.outputHeight)
            for ox in 0..<g.outputWidth {
                let columns = g.columnWindow(ox)
                let count = Int32((rows.end - rows.start) * (columns.end - columns.start))
                let out = output + (row * g.outputWidth + ox) * channels
                let image = input + b * g.inputHeight * g.inputWidth * channels
                var c = firstChannel
                while c + 16 <= lastChannel {
                    var sum = SIMD16<Int32>()
                    for y in rows.start..<rows.end {
                        for x in columns.start..<columns.end {
                            let tap = UnsafeRawPointer(image + (y * g.inputWidth + x) * channels + c)
                            // Sign- or zero-extends each byte, as T is.
                            sum &+= SIMD16<Int32>(truncatingIfNeeded: tap.loadUnaligned(as: SIMD16<T>.self))
                        }
                    }
                    for lane in 0..<16 { out[c + lane] = average(sum[lane], count: count) }
                    c += 16
                }
                while c < lastChannel {
                    var sum: Int32 = 0
                    for y in rows.start..<rows.end {
                        for x in columns.start..<columns.end {
                            sum &+= Int32(image[(y * g.inputWidth + x) * channels + c])
                        }
                    }
                    out[c] = average(sum, count: count)
                    c += 1
                }
            }
        }
    }

    /// `(sum ± count/2) / count`, rounded half away from zero, clamped (0 for an empty window).
    @inlinable
    func average(_ sum: Int32, count: Int32) -> T {
        let average = count == 0 ? 0 : (sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count)
        return T(truncatingIfNeeded: range.clamp(average))
    }
}
