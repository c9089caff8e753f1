/// Optimized reductions over row-major float tensors.
public enum Reduction {
    /// Mean over `axes`; same contract as ``Reference/mean(input:inputShape:axes:output:arithmetic:)`` and the same
    /// results as it with ``Reference/Arithmetic/xnnpack``: NHWC global average pooling sums each channel in
    /// XNNPACK's order (``Reference/globalAveragePoolingSum(_:stride:rows:)``), other reductions in the reference's
    /// row-major order, then every sum is multiplied by the float `1 / n`.
    ///
    /// NHWC global average pooling (rank 4, `axes == [1, 2]`) sums 8 channels at a time, split over channel
    /// blocks when there is enough work; a reduction of the last dimensions sums each output's contiguous run; every
    /// other reduction runs the reference's single row-major pass (same order of additions, so the same results).
    /// Allocates nothing.
    ///
    /// - Parameters:
    ///   - input: `inputShape` elements, row-major.
    ///   - axes: Sorted, unique, non-negative dimensions to reduce.
    ///   - output: The input shape with the reduced dimensions removed; must not overlap the input.
    public static func mean(
        input: UnsafePointer<Float>, inputShape: [Int], axes: [Int], output: UnsafeMutablePointer<Float>,
        pool: ThreadPool
    ) {
        let rank = inputShape.count
        if !axes.isEmpty, axes == Array((rank - axes.count)..<rank), inputShape.allSatisfy({ $0 >= 0 }) {
            trailingMean(input: input, inputShape: inputShape, reducedAxes: axes.count, output: output)
            return
        }
        guard inputShape.count == 4, axes.count == 2, axes[0] == 1, axes[1] == 2, inputShape.allSatisfy({ $0 > 0 })
        else {
            // The reference's row-major pass, which allocates nothing.
            let outputCount = Reference.reduceRowMajor(
                FloatSumReducer(), input: input, inputShape: inputShape, axes: axes, output: output, operation: "mean")
            Reference.scaleSums(
                arithmetic: .xnnpack, output, count: outputCount, reducedCount: axes.reduce(1) { $0 * inputShape[$1] })
            return
        }
        globalAverage(
            input: input, batch: inputShape[0], pixels: inputShape[1] * inputShape[2], channels: inputShape[3],
            output: output, pool: pool)
    }

    /// NHWC global average pooling of `input` (`[batch, pixels, channels]`, `pixels` > 0) into `[batch, channels]`,
    /// in XNNPACK's order: ``mean(input:inputShape:axes:output:pool:)`` over H and W. Allocates nothing.
    public static func globalAverage(
        input: UnsafePointer<Float>, batch: Int, pixels: Int, channels: Int, output: UnsafeMutablePointer<Float>,
        pool: ThreadPool
    ) {
        precondition(pixels > 0, "Reduction.globalAverage: no pixels")
        // Channel blocks of at least 16 channels and about 16K additions each.
        let minimumChunk = max(16, (1 << 14) / pixels)
        for b in 0..<batch {
            pool.parallelRanges(
                channels, minimumChunk: minimumChunk,
                ChannelBlocks(
                    image: input + b * pixels * channels, output: output + b * channels, pixels: pixels,
                    channels: channels))
        }
    }

    /// A mean over the last `reducedAxes` dimensions (a layer norm's): each output's elements are one contiguous
    /// run, summed from 0 in order as the reference's row-major pass adds them, four outputs interleaved so that
    /// their additions overlap instead of waiting on each other.
    private static func trailingMean(
        input: UnsafePointer<Float>, inputShape: [Int], reducedAxes: Int, output: UnsafeMutablePointer<Float>
    ) {
        let inner = inputShape.suffix(reducedAxes).reduce(1, *)
        let outer = inputShape.dropLast(reducedAxes).reduce(1, *)
        var o = 0
        while o + 4 <= outer {
            let row = input + o * inner
            var sums = SIMD4<Float>()
            for i in 0..<inner {
                sums += SIMD4(row[i], row[inner &+ i], row[2 &* inner &+ i], row[3 &* inner &+ i])
            }
            for j in 0..<4 { output[o + j] = sums[j] }
            o += 4
        }
        while o < outer {
            var sum: Float = 0
            for i in 0..<inner { sum += input[o * inner + i] }
            output[o] = sum
            o += 1
        }
        Reference.scaleSums(arithmetic: .xnnpack, output, count: outer, reducedCount: inner)
    }

    /// ``Reference/globalAveragePoolingSum(_:stride:rows:)`` for the 8 channels from `values` at once (lane `i`
    /// the channel at `values + i`): each lane adds the same values in the same order, so it gets the same bits,
    /// and the pixels are read 32 bytes at a time instead of 4 bytes `stride` apart.
    @inline(__always)
    static func globalAveragePoolingSums(_ values: UnsafePointer<Float>, stride: Int, rows: Int) -> SIMD8<Float> {
        @inline(__always) func row(_ start: Int, _ r: Int) -> SIMD8<Float> {
            start + r < rows
                ? UnsafeRawPointer(values + (start + r) * stride).loadUnaligned(as: SIMD8<Float>.self) : SIMD8()
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

    /// One image's channels, in blocks: each channel summed in XNNPACK's global average pooling order, then scaled.
    private struct ChannelBlocks: ParallelRangeBody {
        let image: UnsafePointer<Float>
        let output: UnsafeMutablePointer<Float>
        let pixels: Int
        let channels: Int

        func run(range block: Range<Int>) {
            let blockOut = output + block.lowerBound
            let width = block.count
            var c = 0
            while c + 8 <= width {
                let sums = Reduction.globalAveragePoolingSums(
                    image + block.lowerBound + c, stride: channels, rows: pixels)
                UnsafeMutableRawPointer(blockOut + c).storeBytes(of: sums, as: SIMD8<Float>.self)
                c += 8
            }
            for c in c..<width {
                blockOut[c] = Reference.globalAveragePoolingSum(
                    image + block.lowerBound + c, stride: channels, rows: pixels)
            }
            Reference.scaleSums(arithmetic: .xnnpack, blockOut, count: width, reducedCount: pixels)
        }
    }
}
