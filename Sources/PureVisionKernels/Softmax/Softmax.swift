#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// SOFTMAX along the last axis of a float32 tensor viewed as `[outerCount, axisSize]`.
///
/// `output[i] = exp(beta * (x[i] - max)) / Σ exp(beta * (x[j] - max))` per row; subtracting the row maximum keeps
/// every exponential ≤ 1. The output may alias the input.
public enum Softmax {
    /// Computes the softmax of every row, splitting rows over `pool`.
    public static func run(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, outerCount: Int, axisSize: Int, beta: Float,
        pool: ThreadPool
    ) {
        precondition(outerCount >= 0 && axisSize >= 1, "softmax needs a non-empty axis")
        pool.parallelRanges(
            outerCount, minimumChunk: max(1, 4_096 / axisSize),
            Rows(input: input, output: output, axisSize: axisSize, beta: beta))
    }

    /// Rows of the `[outerCount, axisSize]` view, in ranges.
    private struct Rows: ParallelRangeBody {
        let input: UnsafePointer<Float>
        let output: UnsafeMutablePointer<Float>
        let axisSize: Int
        let beta: Float

        func run(range rows: Range<Int>) {
            for row in rows {
                let x = input + row * axisSize
                let y = output + row * axisSize
                var maximum = x[0]
                for i in 1..<axisSize { maximum = max(maximum, x[i]) }
                var sum: Float = 0
                for i in 0..<axisSize {
                    let e = expf(beta * (x[i] - maximum))
                    y[i] = e
                    sum += e
                }
                let reciprocal = 1 / sum
                for i in 0..<axisSize { y[i] *= reciprocal }
            }
        }
    }
}
