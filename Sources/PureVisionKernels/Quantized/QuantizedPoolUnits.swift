/// The work of an 8-bit MAX_POOL_2D or AVERAGE_POOL_2D (``Quantized/maxPool(geometry:input:output:range:pool:)``,
/// ``Quantized/averagePool(geometry:input:output:range:pool:)``) in units of one output row and one block of
/// ``channelBlock`` channels, split over a pool's threads: rows share out a spatial pool, channel blocks a global one.
@usableFromInline
struct QuantizedPoolUnits<T: QuantizedElement>: ParallelRangeBody {
    @usableFromInline let maximum: Bool
    @usableFromInline let geometry: Pool2DGeometry
    @usableFromInline let input: UnsafePointer<T>
    @usableFromInline let output: UnsafeMutablePointer<T>
    @usableFromInline let range: QuantizedRange
    /// Channel blocks per output row.
    @usableFromInline let blocks: Int

    /// Channels of one unit.
    @usableFromInline static var channelBlock: Int { 64 }
    /// Window taps times channels below which a share of a pooling is not handed to another thread.
    @usableFromInline static var minimumChunkWork: Int { 1 << 15 }

    @inlinable
    init(
        maximum: Bool, geometry: Pool2DGeometry, input: UnsafePointer<T>, output: UnsafeMutablePointer<T>,
        range: QuantizedRange
    ) {
        self.maximum = maximum
        self.geometry = geometry
        self.input = input
        self.output = output
        self.range = range
        blocks = (geometry.channels + Self.channelBlock - 1) / Self.channelBlock
    }

    /// Pools `input` into `output`: the largest values of the windows, or their averages.
    @inlinable
    static func run(
        maximum: Bool, geometry g: Pool2DGeometry, input: UnsafePointer<T>, output: UnsafeMutablePointer<T>,
        range: QuantizedRange, pool: ThreadPool
    ) {
        let units = Self(maximum: maximum, geometry: g, input: input, output: output, range: range)
        let unitWork = max(
            1, g.outputWidth * g.window.kernelHeight * g.window.kernelWidth * min(g.channels, channelBlock))
        pool.parallelRanges(
            g.batch * g.outputHeight * units.blocks, minimumChunk: max(1, minimumChunkWork / unitWork), units)
    }

    @inlinable
    func run(range units: Range<Int>) {
        let g = geometry
        let channels = g.channels
        for unit in units {
            let row = unit / blocks
            let firstChannel = (unit % blocks) * Self.channelBlock
            let lastChannel = min(channels, firstChannel + Self.channelBlock)
            let rows = g.rowWindow(row % g.outputHeight)
            let image = input + (row / g.outputHeight) * g.inputHeight * g.inputWidth * channels
            for ox in 0..<g.outputWidth {
                let columns = g.columnWindow(ox)
                let out = output + (row * g.outputWidth + ox) * channels
                if maximum {
                    largest(
                        rows: rows.start..<rows.end, columns: columns.start..<columns.end, of: image, into: out,
                        channels: firstChannel..<lastChannel)
                } else {
                    average(
                        rows: rows.start..<rows.end, columns: columns.start..<columns.end, of: image, into: out,
                        channels: firstChannel..<lastChannel)
                }
            }
        }
    }

    /// The clamped maximum of the window's taps for `channels`, kept in `out` while the taps are visited (the
    /// channel loop runs over contiguous bytes and vectorizes); the type's minimum, clamped, for an empty window.
    @inlinable
    func largest(
        rows: Range<Int>, columns: Range<Int>, of image: UnsafePointer<T>, into out: UnsafeMutablePointer<T>,
        channels: Range<Int>
    ) {
        let (lower, upper) = (T(clamping: range.lower), T(clamping: range.upper))
        for c in channels { out[c] = T.min }
        for y in rows {
            for x in columns {
                let tap = image + (y * geometry.inputWidth + x) * geometry.channels
                for c in channels { out[c] = Swift.max(out[c], tap[c]) }
            }
        }
        for c in channels { out[c] = min(max(out[c], lower), upper) }
    }

    /// The clamped, rounded average of the window's taps for `channels`, 16 channels at a time in vector lanes.
    @inlinable
    func average(
        rows: Range<Int>, columns: Range<Int>, of image: UnsafePointer<T>, into out: UnsafeMutablePointer<T>,
        channels: Range<Int>
    ) {
        let count = Int32(rows.count * columns.count)
        let rowStride = geometry.inputWidth * geometry.channels
        let pixelStride = geometry.channels
        var c = channels.lowerBound
        while c + 16 <= channels.upperBound {
            var sum = SIMD16<Int32>()
            for y in rows {
                for x in columns {
                    let tap = UnsafeRawPointer(image + y * rowStride + x * pixelStride + c)
                    // Sign- or zero-extends each byte, as T is.
                    sum &+= SIMD16<Int32>(truncatingIfNeeded: tap.loadUnaligned(as: SIMD16<T>.self))
                }
            }
            for lane in 0..<16 { out[c + lane] = rounded(sum[lane], count: count) }
            c += 16
        }
        while c < channels.upperBound {
            var sum: Int32 = 0
            for y in rows {
                for x in columns { sum &+= Int32(image[y * rowStride + x * pixelStride + c]) }
            }
            out[c] = rounded(sum, count: count)
            c += 1
        }
    }

    /// `(sum ± count/2) / count`, rounded half away from zero, clamped (0, clamped, for an empty window).
    @inlinable
    func rounded(_ sum: Int32, count: Int32) -> T {
        let average = count == 0 ? 0 : (sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count)
        return T(truncatingIfNeeded: range.clamp(average))
    }
}
