/// RESIZE_BILINEAR on 8-bit NHWC tensors as TFLite's `ResizeBilinearInteger`, prepared at load.
///
/// The arithmetic is ``Reference/quantizedResizeBilinear(input:batch:inputHeight:inputWidth:channels:output:outputHeight:outputWidth:alignCorners:halfPixelCenters:)``'s:
/// 10-bit fixed-point source coordinates, four taps weighted `(2^10 − dy)(2^10 − dx)`, `dy (2^10 − dx)`,
/// `(2^10 − dy) dx`, `dy dx`, the sum divided by 2^20 rounding half away from zero. Here the taps are computed once,
/// at load, and the sums in int32: |dx|, |dy| ≤ 2^9 + 2^10 makes the four weights' magnitudes
/// sum to at most 2^22, so a sum of 8-bit values times them stays below 2^30 and is exact. Output rows are split over
/// the pool.
public final class QuantizedResizeBilinearKernel: @unchecked Sendable {
    let batch: Int
    let inputHeight: Int
    let inputWidth: Int
    let channels: Int
    let outputHeight: Int
    let outputWidth: Int
    /// Per output row: the two source rows and the fraction `dy` (in 1/2^10, may be negative at the top edge).
    let rowTaps: UnsafeMutablePointer<(Int, Int, Int32)>
    /// Per output column: the two source columns and the fraction `dx`.
    let columnTaps: UnsafeMutablePointer<(Int, Int, Int32)>

    /// Prepares the taps of a resize from `[batch, inputHeight, inputWidth, channels]` to
    /// `[batch, outputHeight, outputWidth, channels]` (extents ≥ 1).
    public init(
        batch: Int, inputHeight: Int, inputWidth: Int, channels: Int, outputHeight: Int, outputWidth: Int,
        alignCorners: Bool, halfPixelCenters: Bool
    ) {
        (self.batch, self.inputHeight, self.inputWidth, self.channels) = (batch, inputHeight, inputWidth, channels)
        (self.outputHeight, self.outputWidth) = (outputHeight, outputWidth)
        func scale(_ input: Int, _ output: Int) -> Int64 {
            if alignCorners && output > 1 {
                return (Int64(1 << 10) * Int64(input - 1) + Int64(output - 1) / 2) / Int64(output - 1)
            }
            return (Int64(1 << 10) * Int64(input) + Int64(output / 2)) / Int64(output)
        }
        func taps(_ count: Int, _ input: Int) -> [(lower: Int, upper: Int, fraction: Int64)] {
            let s = scale(input, count)
            return (0..<count).map { value in
                let scaled = halfPixelCenters ? Int64(value) * s + s / 2 - (1 << 9) : Int64(value) * s
                let lower = max(Int(scaled / (1 << 10)), 0)
                let upper = min(Int((scaled + (1 << 10) - 1) / (1 << 10)), input - 1)
                return (lower, upper, scaled - (Int64(lower) << 10))
            }
        }
        let rows = taps(outputHeight, inputHeight)
        let columns = taps(outputWidth, inputWidth)
        rowTaps = .allocate(capacity: outputHeight)
        columnTaps = .allocate(capacity: outputWidth)
        for (y, row) in rows.enumerated() { (rowTaps + y).initialize(to: (row.lower, row.upper, Int32(row.fraction))) }
        for (x, column) in columns.enumerated() {
            (columnTaps + x).initialize(to: (column.lower, column.upper, Int32(column.fraction)))
        }
    }

    deinit {
        rowTaps.deallocate()
        columnTaps.deallocate()
    }

    /// Resizes int8 values.
    public func run(input: UnsafePointer<Int8>, output: UnsafeMutablePointer<Int8>, pool: ThreadPool) {
        pool.parallelRanges(
            batch * outputHeight, minimumChunk: 2, Rows(kernel: .passUnretained(self), input: input, output: output))
    }

    /// Resizes uint8 values.
    public func run(input: UnsafePointer<UInt8>, output: UnsafeMutablePointer<UInt8>, pool: ThreadPool) {
        pool.parallelRanges(
            batch * outputHeight, minimumChunk: 2, Rows(kernel: .passUnretained(self), input: input, output: output))
    }

    /// A range of output rows (over batch and height). Unmanaged: the caller keeps the kernel alive through the
    /// run, and the threads need not share its reference count.
    private struct Rows<T: QuantizedElement>: ParallelRangeBody {
        let kernel: Unmanaged<QuantizedResizeBilinearKernel>
        let input: UnsafePointer<T>
        let output: UnsafeMutablePointer<T>

        func run(range: Range<Int>) {
            kernel._withUnsafeGuaranteedRef { $0.resize(rows: range, input: input, output: output) }
        }
    }

    @inline(__always)
    private func resize<T: QuantizedElement>(
        rows range: Range<Int>, input: UnsafePointer<T>, output: UnsafeMutablePointer<T>
    ) {
        let c = channels
        for row in range {
            let (b, y) = (row / outputHeight, row % outputHeight)
            let (y0, y1, dy) = rowTaps[y]
            let top = input + (b * inputHeight + y0) * inputWidth * c
            let bottom = input + (b * inputHeight + y1) * inputWidth * c
            let out = output + row * outputWidth * c
            for x in 0..<outputWidth {
                let (x0, x1, dx) = columnTaps[x]
                let w = SIMD4((1024 - dy) &* (1024 - dx), dy &* (1024 - dx), (1024 - dy) &* dx, dy &* dx)
                let (p00, p10, p01, p11) = (top + x0 * c, bottom + x0 * c, top + x1 * c, bottom + x1 * c)
                let o = out + x * c
                for k in 0..<c {
                    let sum =
                        Int32(p00[k]) &* w[0] &+ Int32(p10[k]) &* w[1] &+ Int32(p01[k]) &* w[2] &+ Int32(p11[k])
                        &* w[3]
                    // Rounds half away from zero, then truncates toward zero (Int32 division), as TFLite.
                    o[k] = T(truncatingIfNeeded: (sum &+ (sum > 0 ? 1 << 19 : -(1 << 19))) / (1 << 20))
                }
            }
        }
    }
}
