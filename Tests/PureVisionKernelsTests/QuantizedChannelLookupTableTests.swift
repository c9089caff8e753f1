import PureVisionKernels
import Testing

/// The per-channel 8-bit lookup: built from the rows of every byte value, it maps each element through its own
/// channel's table, on 1-3 threads, for channel counts on both sides of the chunking, and in place.
@Suite struct QuantizedChannelLookupTableTests {
    /// An arbitrary map that depends on the channel: what a chain's kernels would write for `byteRows`.
    static func map(_ byte: UInt8, channel: Int) -> UInt8 { byte &* UInt8(truncatingIfNeeded: 2 * channel + 1) &+ 7 }

    @Test(arguments: [1, 5, 32, 257], [1, 2, 3])
    func mapsEveryElementThroughItsChannel(channels: Int, threads: Int) {
        let rows = QuantizedChannelLookupTable.byteRows(channels: channels)
        #expect(rows.count == 256 * channels)
        let values = rows.enumerated().map { Self.map($0.element, channel: $0.offset % channels) }
        let table = QuantizedChannelLookupTable(channels: channels, rowsOfByteValues: values)
        var random = Random(state: UInt64(channels * 10 + threads))
        let pixels = 40_000 / channels + 3
        let input = (0..<pixels * channels).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let expected = input.enumerated().map { Self.map($0.element, channel: $0.offset % channels) }
        var output = [UInt8](repeating: 0, count: input.count)
        let pool = ThreadPool(threadCount: threads)
        table.run(input: input, output: &output, pixels: pixels, pool: pool)
        #expect(output == expected)
        var inPlace = input
        inPlace.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            table.run(input: base, output: base, pixels: pixels, pool: pool)
        }
        #expect(inPlace == expected)
        #expect(table.entry(channel: channels - 1, byte: 200) == Self.map(200, channel: channels - 1))
    }
}
