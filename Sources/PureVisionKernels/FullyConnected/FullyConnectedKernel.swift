/// Prepared fully connected layer: `output[b, o] = clamp(Σ_i input[b, i] · weights[o, i] + bias[o])` as one
/// ``GEMM`` with the weights used transposed in place (`[outputSize, inputSize]`, no repacking). Output columns are
/// split over the pool's threads when there is enough work; bias and clamp are applied to each chunk right after
/// its product.
public struct FullyConnectedKernel: Sendable {
    /// Rows of input and output.
    public let batch: Int
    /// Input features per row.
    public let inputSize: Int
    /// Output features per row.
    public let outputSize: Int

    /// Copy of the weights, `[outputSize, inputSize]`.
    private let weights: [Float]
    /// `[outputSize]`, or empty when the layer has no bias.
    private let bias: [Float]
    private let clamp: ClampRange

    /// Multiply-adds below which a chunk is not worth a thread.
    static let minimumChunkWork = 1 << 15

    /// Copies `weights` (`[outputSize, inputSize]`) and `bias` (`[outputSize]` or `nil`). Neither pointer is
    /// retained. All sizes must be positive.
    public init(
        batch: Int, inputSize: Int, outputSize: Int,
        weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?, clamp: ClampRange
    ) {
        precondition(batch > 0 && inputSize > 0 && outputSize > 0,
                     "FullyConnectedKernel: batch \(batch), inputSize \(inputSize), outputSize \(outputSize)")
        self.batch = batch
        self.inputSize = inputSize
        self.outputSize = outputSize
        self.clamp = clamp
        self.weights = Array(UnsafeBufferPointer(start: weights, count: outputSize * inputSize))
        if let bias {
            self.bias = Array(UnsafeBufferPointer(start: bias, count: outputSize))
        } else {
            self.bias = []
        }
    }

    /// Computes `output` (`[batch, outputSize]`) from `input` (`[batch, inputSize]`); they must not overlap.
    /// Allocates nothing.
    public func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pool: ThreadPool) {
        let batch = batch
        let inputSize = inputSize
        let outputSize = outputSize
        let clamp = clamp
        weights.withUnsafeBufferPointer { weightBuffer in
            bias.withUnsafeBufferPointer { biasBuffer in
                guard let weightPointer = weightBuffer.baseAddress else { return }
                // An empty array still has a non-nil base address.
                let biasPointer = biasBuffer.isEmpty ? nil : biasBuffer.baseAddress
                let minimumChunk = max(8, Self.minimumChunkWork / (batch * inputSize))
                pool.parallelRanges(
                    outputSize, minimumChunk: minimumChunk,
                    Columns(
                        batch: batch, inputSize: inputSize, outputSize: outputSize, input: input,
                        weights: weightPointer, bias: biasPointer, output: output, clamp: clamp))
            }
        }
    }

    /// A run's output columns, in ranges: one GEMM, then bias and clamp, per range.
    private struct Columns: ParallelRangeBody {
        let batch: Int
        let inputSize: Int
        let outputSize: Int
        let input: UnsafePointer<Float>
        let weights: UnsafePointer<Float>
        let bias: UnsafePointer<Float>?
        let output: UnsafeMutablePointer<Float>
        let clamp: ClampRange

        func run(range columns: Range<Int>) {
            let out = output + columns.lowerBound
            GEMM.multiply(
                m: batch, n: columns.count, k: inputSize, a: input, lda: inputSize,
                b: weights + columns.lowerBound * inputSize, ldb: inputSize, layout: .nByK, c: out, ldc: outputSize)
            GEMM.applyBiasAndClamp(
                m: batch, n: columns.count, c: out, ldc: outputSize, bias: bias.map { $0 + columns.lowerBound },
                clamp: clamp)
        }
    }
}
