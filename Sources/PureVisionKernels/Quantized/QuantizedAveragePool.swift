extension Quantized {
    /// AVERAGE_POOL_2D on 8-bit NHWC: the int32 sum of the in-bounds window divided by its element count, rounded
    /// half away from zero (`(sum ± count/2) / count`), clamped to `range`.
    @inlinable
    public static func averagePool<T: QuantizedElement>(
        geometry g: Pool2DGeometry, input: UnsafePointer<T>, output: UnsafeMutablePointer<T>, range: QuantizedRange
    ) {
        for b in 0..<g.batch {
            for oy in 0..<g.outputHeight {
                for ox in 0..<g.outputWidth {
                    let rows = g.rowWindow(oy)
                    let columns = g.columnWindow(ox)
                    let count = Int32((rows.end - rows.start) * (columns.end - columns.start))
                    let out = output + ((b * g.outputHeight + oy) * g.outputWidth + ox) * g.channels
                    for c in 0..<g.channels {
                        var sum: Int32 = 0
                        for y in rows.start..<rows.end {
                            for x in columns.start..<columns.end {
                                sum &+= Int32(input[((b * g.inputHeight + y) * g.inputWidth + x) * g.channels + c])
                            }
                        }
                        let average = count == 0 ? 0 : (sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count)
                        out[c] = T(truncatingIfNeeded: range.clamp(average))
                    }
                }
            }
        }
    }
}
