extension Quantized {
    /// MAX_POOL_2D on 8-bit NHWC: the largest in-bounds value of each window, clamped to `range` (the type's minimum,
    /// clamped, when a window misses the input). Each output pixel's channels are kept in the output row itself
    /// while the window's taps are visited, so the inner loop runs over contiguous channels and vectorizes; the maximum
    /// of 8-bit values is the same in any order. ``Reference/quantizedMaxPool(geometry:input:output:range:)`` is its
    /// twin.
    @inlinable
    public static func maxPool<T: QuantizedElement>(
        geometry g: Pool2DGeometry, input: UnsafePointer<T>, output: UnsafeMutablePointer<T>, range: QuantizedRange
    ) {
        let channels = g.channels
        let (lower, upper) = (T(clamping: range.lower), T(clamping: range.upper))
        for b in 0..<g.batch {
            for oy in 0..<g.outputHeight {
                let rows = g.rowWindow(oy)
                for ox in 0..<g.outputWidth {
                    let columns = g.columnWindow(ox)
                    let out = output + ((b * g.outputHeight + oy) * g.outputWidth + ox) * channels
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
}
