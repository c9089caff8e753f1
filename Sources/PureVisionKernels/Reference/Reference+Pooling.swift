extension Reference {
    /// Max pooling, NHWC, as plain nested loops: each output is the clamped maximum of the window's in-bounds
    /// input values (`-Float.greatestFiniteMagnitude` before clamping if the window misses the input entirely).
    ///
    /// - Parameters:
    ///   - input: `[batch, inputHeight, inputWidth, channels]`.
    ///   - output: `[batch, outputHeight, outputWidth, channels]`.
    public static func maxPool2D(
        geometry g: Pool2DGeometry, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        clamp: ClampRange
    ) {
        precondition(g.isValid, "maxPool2D: invalid geometry \(g)")
        g.forEachWindow { outputIndex, taps in
            var maximum = -Float.greatestFiniteMagnitude
            for tap in taps { maximum = max(maximum, input[tap]) }
            output[outputIndex] = clamp.apply(maximum)
        }
    }

    /// Average pooling, NHWC, as plain nested loops: each output is the clamped mean of the window's in-bounds
    /// input values only (padding is not counted, as in TFLite). A window that misses the input entirely (which
    /// TFLite rejects) yields `clamp(0)`.
    ///
    /// - Parameters:
    ///   - input: `[batch, inputHeight, inputWidth, channels]`.
    ///   - output: `[batch, outputHeight, outputWidth, channels]`.
    ///   - arithmetic: with `.xnnpack` a window over the whole input is summed as XNNPACK's global average
    ///     pooling (``globalAveragePoolingSum(_:stride:rows:)``, then `× 1/n`), as MediaPipe runs it.
    public static func averagePool2D(
        geometry g: Pool2DGeometry, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        clamp: ClampRange, arithmetic: Arithmetic = .liteRT
    ) {
        precondition(g.isValid, "averagePool2D: invalid geometry \(g)")
        if arithmetic == .xnnpack, g.isGlobal {
            // XNNPACK pools a window covering the whole input as global average pooling (as MEAN over H and W).
            globalAveragePool(
                input: input, batch: g.batch, pixels: g.inputHeight * g.inputWidth, channels: g.channels,
                output: output)
            for index in 0..<(g.batch * g.channels) { output[index] = clamp.apply(output[index]) }
            return
        }
        g.forEachWindow { outputIndex, taps in
            var sum: Float = 0
            for tap in taps { sum += input[tap] }
            output[outputIndex] = clamp.apply(taps.count == 0 ? 0 : sum / Float(taps.count))
        }
    }
}

extension Reference {
    /// 8-bit MAX_POOL_2D as plain nested loops, channel by channel: the clamped maximum of each window's in-bounds
    /// values (the type's minimum, clamped, when the window misses the input).
    public static func quantizedMaxPool<T: QuantizedElement>(
        geometry g: Pool2DGeometry, input: UnsafePointer<T>, output: UnsafeMutablePointer<T>, range: QuantizedRange
    ) {
        g.forEachWindow { outputIndex, taps in
            var best = Int32(T.min)
            for tap in taps { best = max(best, Int32(input[tap])) }
            output[outputIndex] = T(truncatingIfNeeded: range.clamp(best))
        }
    }

    /// 8-bit AVERAGE_POOL_2D as plain nested loops, channel by channel: the int32 sum of each window's in-bounds
    /// values divided by their count, rounded half away from zero, clamped (0, clamped, when the window misses the
    /// input).
    public static func quantizedAveragePool<T: QuantizedElement>(
        geometry g: Pool2DGeometry, input: UnsafePointer<T>, output: UnsafeMutablePointer<T>, range: QuantizedRange
    ) {
        g.forEachWindow { outputIndex, taps in
            var sum: Int32 = 0
            for tap in taps { sum &+= Int32(input[tap]) }
            let count = Int32(taps.count)
            let average = count == 0 ? 0 : (sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count)
            output[outputIndex] = T(truncatingIfNeeded: range.clamp(average))
        }
    }
}

extension Pool2DGeometry {
    /// Calls `body` for every output element in NHWC order, with its flat index and the in-bounds taps of its
    /// window (see ``PoolWindowTaps``).
    @inline(__always)
    func forEachWindow(_ body: (_ outputIndex: Int, _ taps: PoolWindowTaps) -> Void) {
        var outputIndex = 0
        for b in 0..<batch {
            for oy in 0..<outputHeight {
                let rows = rowWindow(oy)
                for ox in 0..<outputWidth {
                    let columns = columnWindow(ox)
                    for c in 0..<channels {
                        body(
                            outputIndex,
                            PoolWindowTaps(
                                rows: rows.start..<rows.end, columns: columns.start..<columns.end,
                                rowStride: inputWidth * channels, columnStride: channels,
                                origin: b * inputHeight * inputWidth * channels + c))
                        outputIndex += 1
                    }
                }
            }
        }
    }
}

/// The in-bounds taps of one pooling window for one channel, as flat NHWC input indices
/// (`origin + y · rowStride + x · columnStride`), row by row and left to right within a row.
struct PoolWindowTaps: Sequence {
    let rows: Range<Int>
    let columns: Range<Int>
    let rowStride: Int
    let columnStride: Int
    let origin: Int

    /// The number of taps (0 when the window misses the input).
    var count: Int { rows.count * columns.count }

    func makeIterator() -> Iterator { Iterator(taps: self, y: rows.lowerBound, x: columns.lowerBound) }

    /// Walks the taps in order.
    struct Iterator: IteratorProtocol {
        let taps: PoolWindowTaps
        var y: Int
        var x: Int

        mutating func next() -> Int? {
            if x == taps.columns.upperBound {
                x = taps.columns.lowerBound
                y += 1
            }
            guard y < taps.rows.upperBound, !taps.columns.isEmpty else { return nil }
            defer { x += 1 }
            return taps.origin + y * taps.rowStride + x * taps.columnStride
        }
    }
}
