/// An element-wise map from 8-bit values to float32 that may differ per channel (the innermost axis of NHWC data):
/// one 256-entry table per channel, or a single one when every channel's is the same. A chain of element-wise
/// operators from an 8-bit tensor to a float one (say an 8-bit LOGISTIC, then DEQUANTIZE) maps each input byte of
/// a channel to one float, so it can run as a single lookup per element; the tables are made by running the chain's
/// own kernels once on every byte value of every channel, so the lookup gives exactly what the operators would.
public final class QuantizedFloatLookupTable: @unchecked Sendable {
    /// Channels of the data the tables are for.
    public let channels: Int
    /// Whether every channel has the same table (then only one is kept).
    public let isUniform: Bool
    /// `tables[channel · 256 + byte]` (channel 0 only when ``isUniform``): the output for input `byte` (the bit
    /// pattern of int8 values) in `channel`.
    private let tables: UnsafeMutablePointer<Float>

    /// Tables from `values`, laid out `[byte][channel]` (`values[byte · channels + channel]`, 256 · `channels`
    /// floats): the outputs of a map run on ``QuantizedChannelLookupTable/byteRows(channels:)``. Channels whose
    /// entries are equal bit for bit share one table.
    public init(channels: Int, rowsOfByteValues values: [Float]) {
        precondition(channels > 0 && values.count == 256 * channels, "256 rows of \(channels) channels")
        self.channels = channels
        // Bit patterns, so that NaN payloads and the sign of zero count as differences.
        isUniform = (0..<256).allSatisfy { byte in
            let row = values[(byte * channels)..<((byte + 1) * channels)]
            return row.allSatisfy { $0.bitPattern == row.first?.bitPattern }
        }
        let kept = isUniform ? 1 : channels
        tables = .allocate(capacity: kept * 256)
        for channel in 0..<kept {
            for byte in 0..<256 { (tables + channel * 256 + byte).initialize(to: values[byte * channels + channel]) }
        }
    }

    deinit { tables.deallocate() }

    /// The output for input byte `byte` in `channel`.
    public func entry(channel: Int, byte: UInt8) -> Float { tables[(isUniform ? 0 : channel) * 256 + Int(byte)] }

    /// Maps `pixels · channels` bytes (channels innermost) from `input` to floats in `output`, split by pixels over
    /// `pool`.
    public func run(input: UnsafePointer<UInt8>, output: UnsafeMutablePointer<Float>, pixels: Int, pool: ThreadPool) {
        withExtendedLifetime(self) {
            if isUniform {
                let count = pixels * channels
                pool.parallelRanges(
                    count, minimumChunk: 1 << 14, UniformLookups(table: tables, input: input, output: output))
            } else {
                ChannelTableLookups.run(
                    tables: tables, channels: channels, input: input, output: output, pixels: pixels, pool: pool)
            }
        }
    }

    /// One table for every element: eight bytes in one load and eight floats in one store, since the loop is bound
    /// by memory operations.
    private struct UniformLookups: ParallelRangeBody {
        let table: UnsafeMutablePointer<Float>
        let input: UnsafePointer<UInt8>
        let output: UnsafeMutablePointer<Float>

        func run(range: Range<Int>) {
            let (x, y) = (input + range.lowerBound, output + range.lowerBound)
            let count = range.count
            var i = 0
            while i + 8 <= count {
                let b = UInt64(littleEndian: UnsafeRawPointer(x + i).loadUnaligned(as: UInt64.self))
                @inline(__always) func entry(_ k: UInt64) -> Float {
                    table[Int(truncatingIfNeeded: (b >> k) & 0xFF)]
                }
                let v = SIMD8<Float>(
                    entry(0), entry(8), entry(16), entry(24), entry(32), entry(40), entry(48), entry(56))
                UnsafeMutableRawPointer(y + i).storeBytes(of: v, as: SIMD8<Float>.self)
                i += 8
            }
            while i < count {
                y[i] = table[Int(x[i])]
                i += 1
            }
        }
    }
}
