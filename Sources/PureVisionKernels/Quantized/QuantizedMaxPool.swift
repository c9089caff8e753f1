extension Quantized {
    /// MAX_POOL_2D on 8-bit NHWC: the largest in-bounds value of each window, clamped to `range`.
    @inlinable
    public static func maxPool<T: QuantizedElement>(
        geometry g: Pool2DGeometry, input: UnsafePointer<T>, output: UnsafeMutablePointer<T>, range: QuantizedRange
    ) {
        for b in 0..<g.batch {
            for oy in 0..<g.outputHeight {
                for ox in 0..<g.outputWidth {
                    let rows = g.rowWindow(oy)
                    let columns = g.columnWindow(ox)
                    let out = output + ((b * g.outputHeight + oy) * g.outputWidth + ox) * g.channels
                    for c in 0..<g.channels {
                        var best = Int32(T.min)
                        for y in rows.start..<rows.end {
                            for x in columns.start..<columns.end {
                                best = max(
                                    best, Int32(input[((b * g.inputHeight + y) * g.inputWidth + x) * g.channels + c]))
                            }
                        }
                        out[c] = T(truncatingIfNeeded: range.clamp(best))
                    }
                }
            }
        }
    }
}
