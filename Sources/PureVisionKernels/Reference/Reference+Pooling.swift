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
        for b in 0..<g.batch {
            for oy in 0..<g.outputHeight {
                for ox in 0..<g.outputWidth {
                    for c in 0..<g.channels {
                        var maximum = -Float.greatestFiniteMagnitude
                        for fy in 0..<g.filterHeight {
                            let iy = oy * g.strideHeight - g.paddingTop + fy
                            if iy < 0 || iy >= g.inputHeight { continue }
                            for fx in 0..<g.filterWidth {
                                let ix = ox * g.strideWidth - g.paddingLeft + fx
                                if ix < 0 || ix >= g.inputWidth { continue }
                                let value = input[((b * g.inputHeight + iy) * g.inputWidth + ix) * g.channels + c]
                                maximum = max(maximum, value)
                            }
                        }
                        output[((b * g.outputHeight + oy) * g.outputWidth + ox) * g.channels + c] = clamp.apply(maximum)
                    }
                }
            }
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
        for b in 0..<g.batch {
            for oy in 0..<g.outputHeight {
                for ox in 0..<g.outputWidth {
                    for c in 0..<g.channels {
                        var sum: Float = 0
                        var count = 0
                        for fy in 0..<g.filterHeight {
                            let iy = oy * g.strideHeight - g.paddingTop + fy
                            if iy < 0 || iy >= g.inputHeight { continue }
                            for fx in 0..<g.filterWidth {
                                let ix = ox * g.strideWidth - g.paddingLeft + fx
                                if ix < 0 || ix >= g.inputWidth { continue }
                                sum += input[((b * g.inputHeight + iy) * g.inputWidth + ix) * g.channels + c]
                                count += 1
                            }
                        }
                        let average = count == 0 ? 0 : sum / Float(count)
                        output[((b * g.outputHeight + oy) * g.outputWidth + ox) * g.channels + c] = clamp.apply(average)
                    }
                }
            }
        }
    }
}

extension Reference {
    /// 8-bit MAX_POOL_2D as plain nested loops, channel by channel: the clamped maximum of each window's in-bounds
    /// values (the type's minimum, clamped, when the window misses the input).
    public static func quantizedMaxPool<T: QuantizedElement>(
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

    /// 8-bit AVERAGE_POOL_2D as plain nested loops, channel by channel: the int32 sum of each window's in-bounds
    /// values divided by their count, rounded half away from zero, clamped (0, clamped, when the window misses the
    /// input).
    public static func quantizedAveragePool<T: QuantizedElement>(
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
