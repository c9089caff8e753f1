extension Reference {
    /// Mean over `axes` of a row-major tensor, as one pass over the input in row-major order: every input element
    /// is added (in float) to the output element it reduces into, then each output is scaled by the number `n` of
    /// elements reduced into it: divided by `n`, as TFLite's reference MEAN does, or multiplied by the float
    /// `1 / n`, as XNNPACK does (`scaling`).
    ///
    /// - Parameters:
    ///   - input: `inputShape` elements, row-major. Rank ≤ 6, every dimension ≥ 0.
    ///   - axes: Dimensions to reduce: sorted, unique, each in `0 ..< inputShape.count` (empty copies the input).
    ///   - output: The input shape with the reduced dimensions removed (keeping them as size 1 does not change the
    ///     memory). An empty reduction yields `0 / 0 = NaN`, as in TensorFlow (`0 · ∞` with the reciprocal).
    ///   - arithmetic: how the sums become means (see ``Arithmetic``).
    public static func mean(
        input: UnsafePointer<Float>, inputShape: [Int], axes: [Int], output: UnsafeMutablePointer<Float>,
        arithmetic: Arithmetic = .liteRT
    ) {
        let rank = inputShape.count
        if arithmetic == .xnnpack, rank == 4, axes == [1, 2], inputShape.allSatisfy({ $0 > 0 }) {
            // XNNPACK runs this as global average pooling.
            globalAveragePool(
                input: input, batch: inputShape[0], pixels: inputShape[1] * inputShape[2], channels: inputShape[3],
                output: output)
            return
        }
        let outputCount = reduceRowMajor(
            FloatSumReducer(), input: input, inputShape: inputShape, axes: axes, output: output, operation: "mean")
        let reducedCount = axes.reduce(1) { $0 * inputShape[$1] }
        scaleSums(arithmetic: arithmetic, output, count: outputCount, reducedCount: reducedCount)
    }

    /// XNNPACK's global average pooling of NHWC `input` (`pixels = H · W`) into `[batch, channels]`: each channel's
    /// sum in ``globalAveragePoolingSum(_:stride:rows:)``'s order, times the float `1 / pixels`.
    @inlinable
    public static func globalAveragePool(
        input: UnsafePointer<Float>, batch: Int, pixels: Int, channels: Int, output: UnsafeMutablePointer<Float>
    ) {
        for b in 0..<batch {
            for c in 0..<channels {
                output[b * channels + c] = globalAveragePoolingSum(
                    input + b * pixels * channels + c, stride: channels, rows: pixels)
            }
        }
        scaleSums(arithmetic: .xnnpack, output, count: batch * channels, reducedCount: pixels)
    }

    /// The sum of `rows` values `stride` apart in XNNPACK's global average pooling order: 7 rows per pass, a missing
    /// row read as 0; the first pass adds `(r0 + r1) + r6` and `(r2 + r3) + (r4 + r5)`, every later pass
    /// `(r0 + r1) + (r2 + r3)` and `(r4 + r5) + (r6 + previous)`, then those two.
    @inlinable
    public static func globalAveragePoolingSum(_ values: UnsafePointer<Float>, stride: Int, rows: Int) -> Float {
        @inline(__always) func row(_ start: Int, _ r: Int) -> Float {
            start + r < rows ? values[(start + r) * stride] : 0
        }
        var sum = ((row(0, 0) + row(0, 1)) + row(0, 6)) + ((row(0, 2) + row(0, 3)) + (row(0, 4) + row(0, 5)))
        var start = 7
        while start < rows {
            sum =
                ((row(start, 0) + row(start, 1)) + (row(start, 2) + row(start, 3)))
                + ((row(start, 4) + row(start, 5)) + (row(start, 6) + sum))
            start += 7
        }
        return sum
    }

    /// Turns `count` sums of `reducedCount` elements each at `values` into means, in place: `sum / n` (LiteRT) or
    /// `sum · (1 / n)` with the reciprocal rounded to float first (XNNPACK).
    @inlinable
    public static func scaleSums(
        arithmetic: Arithmetic, _ values: UnsafeMutablePointer<Float>, count: Int, reducedCount: Int
    ) {
        switch arithmetic {
        case .liteRT:
            let divisor = Float(reducedCount)
            for index in 0..<count { values[index] /= divisor }
        case .xnnpack:
            let reciprocal = 1 / Float(reducedCount)
            for index in 0..<count { values[index] *= reciprocal }
        }
    }
}

extension Reference {
    /// The scalar twin of `Quantized.meanHeightWidth`: each channel's int32 sum over the pixels of its image, then
    /// the same multiplier and bias.
    public static func quantizedMeanHeightWidth<T: QuantizedElement>(
        input: UnsafePointer<T>, output: UnsafeMutablePointer<T>, batch: Int, height: Int, width: Int, channels: Int,
        inputScale: Float, inputZeroPoint: Int32, outputScale: Float, outputZeroPoint: Int32
    ) {
        let (m, bias) = Quantized.meanHeightWidthRequantization(
            pixels: height * width, inputScale: inputScale, inputZeroPoint: inputZeroPoint, outputScale: outputScale,
            outputZeroPoint: outputZeroPoint)
        for b in 0..<batch {
            for c in 0..<channels {
                var sum: Int32 = 0
                for p in 0..<(height * width) { sum &+= Int32(input[(b * height * width + p) * channels + c]) }
                let value = m.apply(sum) &+ bias
                output[b * channels + c] = T(truncatingIfNeeded: min(max(value, Int32(T.min)), Int32(T.max)))
            }
        }
    }

    /// The scalar twin of `Quantized.mean`: each output's int32 sum over `reducedOffsets`, one output at a time, with
    /// the same multiplier (`Quantized.meanMultiplier`).
    public static func quantizedMean<T: QuantizedElement>(
        input: UnsafePointer<T>, output: UnsafeMutablePointer<T>, outputOffsets: [Int], reducedOffsets: [Int],
        inputZeroPoint: Int32, outputZeroPoint: Int32, multiplier: QuantizedMultiplier
    ) {
        let n = reducedOffsets.count
        let m = Quantized.meanMultiplier(multiplier, count: n)
        for (o, base) in outputOffsets.enumerated() {
            var sum: Int32 = 0
            for offset in reducedOffsets { sum &+= Int32(input[base + offset]) }
            let value = m.apply(sum &- inputZeroPoint &* Int32(n)) &+ outputZeroPoint
            output[o] = T(truncatingIfNeeded: min(max(value, Int32(T.min)), Int32(T.max)))
        }
    }
}
