/// Prepared fully connected layer: `output[b, o] = clamp(Σ_i input[b, i] · weights[o, i] + bias[o])` as one
/// ``GEMM`` with the weights used transposed in place (`[outputSize, inputSize]`, no repacking). Output columns are
/// split over the pool's threads when there is enough work; bias and clamp are applied to each chunk right after
/// its product.
///
/// Prepared with `generatesMachineCode` on a CPU with AVX2 + FMA, a run is instead one call of the convolutions'
/// generated GEMM (``Conv2DGEMMCode``, the layer being a 1×1 convolution of `batch` pixels), on the calling thread:
/// each sum starts at the bias and takes one fused multiply-add per input feature in order, as XNNPACK's fully
/// connected kernels do (``Reference/Arithmetic/xnnpack``).
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
    /// The generated GEMM, when prepared with it (then ``weights`` and ``bias`` are empty).
    private let generated: Conv2DGEMMCode?

    /// Whether runs use the generated AVX2/FMA code rather than CBLAS.
    public var usesGeneratedCode: Bool { generated != nil }

    /// Multiply-adds below which a chunk is not worth a thread.
    static let minimumChunkWork = 1 << 15

    /// Copies `weights` (`[outputSize, inputSize]`) and `bias` (`[outputSize]` or `nil`). Neither pointer is
    /// retained. All sizes must be positive. `generatesMachineCode` asks for the generated AVX2/FMA code, used when
    /// ``HostCPU`` supports it and the sizes fit (see ``usesGeneratedCode``).
    public init(
        batch: Int, inputSize: Int, outputSize: Int,
        weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?, clamp: ClampRange,
        generatesMachineCode: Bool = false
    ) {
        precondition(
            batch > 0 && inputSize > 0 && outputSize > 0,
            "FullyConnectedKernel: batch \(batch), inputSize \(inputSize), outputSize \(outputSize)")
        self.batch = batch
        self.inputSize = inputSize
        self.outputSize = outputSize
        self.clamp = clamp
        if generatesMachineCode && HostCPU.supportsGeneratedAVX2 {
            let panels = Conv2DFilterPanels(filter: weights, k: inputSize, outputChannels: outputSize)
            let zeros = [Float](repeating: 0, count: outputSize)
            generated = zeros.withUnsafeBufferPointer { zeroBuffer in
                (bias ?? zeroBuffer.baseAddress).flatMap {
                    Conv2DGEMMCode(panels: panels, bias: $0, clamp: clamp, epilogue: .none)
                }
            }
        } else {
            generated = nil
        }
        if generated == nil {
            self.weights = Array(UnsafeBufferPointer(start: weights, count: outputSize * inputSize))
            self.bias = bias.map { Array(UnsafeBufferPointer(start: $0, count: outputSize)) } ?? []
        } else {
            (self.weights, self.bias) = ([], [])
        }
    }

    /// Computes `output` (`[batch, outputSize]`) from `input` (`[batch, inputSize]`); they must not overlap.
    /// Allocates nothing.
    public func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pool: ThreadPool) {
        if let generated {
            generated.run(a: input, lda: inputSize, c: output, rows: batch, residual: nil)
            return
        }
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
