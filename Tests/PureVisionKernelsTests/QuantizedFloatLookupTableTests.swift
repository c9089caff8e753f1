import PureVisionKernels
import Testing

/// The 8-bit-to-float lookup: built from the rows of every byte value, it maps each element through its channel's
/// table (one shared table when all channels agree bit for bit), on 1-3 threads, for element counts around the
/// eight-wide body, and keeps NaN payloads and signed zeros.
@Suite struct QuantizedFloatLookupTableTests {
    /// A per-channel map with awkward values: −0, +∞ and a NaN with a payload among ordinary floats.
    static func map(_ byte: UInt8, channel: Int) -> Float {
        switch byte {
        case 0: -0.0
        case 1: .infinity
        case 2: Float(bitPattern: 0x7FC0_1234)
        default: Float(Int8(bitPattern: byte)) * 0.37 + Float(channel) * 1.5
        }
    }

    static func rows(channels: Int, uniform: Bool) -> [Float] {
        QuantizedChannelLookupTable.byteRows(channels: channels).enumerated().map {
            map($0.element, channel: uniform ? 0 : $0.offset % channels)
        }
    }

    @Test(arguments: [1, 3, 90, 257], [1, 2, 3])
    func mapsEveryElementThroughItsChannel(channels: Int, threads: Int) {
        for uniform in [true, false] {
            let table = QuantizedFloatLookupTable(
                channels: channels, rowsOfByteValues: Self.rows(channels: channels, uniform: uniform))
            #expect(table.isUniform == (uniform || channels == 1))
            var random = Random(state: UInt64(channels * 10 + threads))
            for pixels in [1, 7, 40_000 / channels + 3] {
                let input = (0..<pixels * channels).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                let expected = input.enumerated().map {
                    Self.map($0.element, channel: uniform ? 0 : $0.offset % channels).bitPattern
                }
                var output = [Float](repeating: 42, count: input.count)
                table.run(input: input, output: &output, pixels: pixels, pool: ThreadPool(threadCount: threads))
                let differing = zip(output.map(\.bitPattern), expected).filter { $0 != $1 }.count
                #expect(differing == 0, "\(channels) channels, \(pixels) pixels, uniform \(uniform)")
            }
            #expect(
                table.entry(channel: channels - 1, byte: 200).bitPattern
                    == Self.map(200, channel: uniform ? 0 : channels - 1).bitPattern)
        }
    }

    /// Tables that differ only in the sign of a zero or a NaN's payload are not merged.
    @Test func keepsChannelsThatDifferOnlyInBits() {
        for (a, b) in [(Float(0), Float(-0.0)), (Float.nan, Float(bitPattern: 0x7FC0_0001))] {
            var values = [Float](repeating: 1, count: 512)
            values[2 * 9] = a
            values[2 * 9 + 1] = b
            let table = QuantizedFloatLookupTable(channels: 2, rowsOfByteValues: values)
            #expect(!table.isUniform)
            #expect(table.entry(channel: 1, byte: 9).bitPattern == b.bitPattern)
        }
    }
}
