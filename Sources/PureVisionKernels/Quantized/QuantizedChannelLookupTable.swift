/// An element-wise map of 8-bit values that may differ per channel (the innermost axis of NHWC data): one 256-entry
/// table per channel. A chain of element-wise operators between two 8-bit tensors (say DEQUANTIZE, a per-channel
/// PRELU in float, QUANTIZE) maps each input byte of a channel to one output byte, so it can run as a single lookup
/// per element; the tables are made by running the chain's own kernels once on every byte value of every channel,
/// so the lookup gives exactly what the operators would.
public final class QuantizedChannelLookupTable: @unchecked Sendable {
    /// Channels, each with its own table.
    public let channels: Int
    /// `tables[channel · 256 + byte]`: the output byte for input `byte` (the bit pattern of int8 values) in `channel`.
    private let tables: UnsafeMutablePointer<UInt8>

    /// Tables from `values`, laid out `[byte][channel]` (`values[byte · channels + channel]`, 256 · `channels`
    /// bytes): the outputs of a map run on ``byteRows(channels:)``.
    public init(channels: Int, rowsOfByteValues values: [UInt8]) {
        precondition(channels > 0 && values.count == 256 * channels, "256 rows of \(channels) channels")
        self.channels = channels
        tables = .allocate(capacity: channels * 256)
        for channel in 0..<channels {
            for byte in 0..<256 { (tables + channel * 256 + byte).initialize(to: values[byte * channels + channel]) }
        }
    }

    deinit { tables.deallocate() }

    /// The 256 · `channels` input bytes that make the tables when a map runs on them: row `b` (of `channels` bytes)
    /// holds the byte `b` in every channel.
    public static func byteRows(channels: Int) -> [UInt8] {
        (0..<256 * channels).map { UInt8(truncatingIfNeeded: $0 / channels) }
    }

    /// The output for input byte `byte` in `channel`.
    public func entry(channel: Int, byte: UInt8) -> UInt8 { tables[channel * 256 + Int(byte)] }

    /// Maps `pixels · channels` bytes (channels innermost) from `input` to `output` (which may be `input`), split
    /// by pixels over `pool`.
    public func run(input: UnsafePointer<UInt8>, output: UnsafeMutablePointer<UInt8>, pixels: Int, pool: ThreadPool) {
        withExtendedLifetime(self) {
            ChannelTableLookups.run(
                tables: tables, channels: channels, input: input, output: output, pixels: pixels, pool: pool)
        }
    }
}

/// Maps pixels of `channels` bytes through one 256-entry table of `Output` per channel (`tables[channel · 256 +
/// byte]`), split by pixels over a pool: the loop of ``QuantizedChannelLookupTable`` and of
/// ``QuantizedFloatLookupTable``'s per-channel tables.
struct ChannelTableLookups<Output>: ParallelRangeBody {
    let tables: UnsafePointer<Output>
    let channels: Int
    let input: UnsafePointer<UInt8>
    let output: UnsafeMutablePointer<Output>

    /// Maps `pixels · channels` bytes from `input` into `output`, in chunks of at least ~16 Ki elements so that the
    /// threads' hand-off costs less than the lookups.
    static func run(
        tables: UnsafeMutablePointer<Output>, channels: Int, input: UnsafePointer<UInt8>,
        output: UnsafeMutablePointer<Output>, pixels: Int, pool: ThreadPool
    ) {
        let body = ChannelTableLookups(tables: tables, channels: channels, input: input, output: output)
        pool.parallelRanges(pixels, minimumChunk: max(1, (1 << 14) / channels), body)
    }

    func run(range: Range<Int>) {
        var x = input + range.lowerBound * channels
        var y = output + range.lowerBound * channels
        for _ in range {
            var channelTable = tables
            for c in 0..<channels {
                y[c] = channelTable[Int(x[c])]
                channelTable += 256
            }
            x += channels
            y += channels
        }
    }
}
