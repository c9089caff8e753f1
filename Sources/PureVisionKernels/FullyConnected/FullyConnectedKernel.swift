/// Prepared fully connected layer: `output[b, o] = clamp(Σ_i input[b, i] · weights[o, i] + bias[o])` as one
/// ``GEMM`` with the weights used transposed in place (`[outputSize, inputSize]`, no repacking). Output columns are
/// cut into ranges when there is enough work, by the sizes alone so that the result does not depend on the thread
/// count, and the pool's threads share the ranges out; bias and clamp are applied to each range right after its
/// product.
///
/// Prepared with `generatesMachineCode` on a CPU with AVX2 + FMA, a run is instead the convolutions' generated GEMM
/// (``Conv2DGEMMCode``, the layer being a 1×1 convolution of `batch` pixels): each sum starts at the bias and takes
/// one fused multiply-add per input feature in order, as XNNPACK's fully connected kernels do
/// (``Reference/Arithmetic/xnnpack``). With one row and several threads, the output features are cut into slices of
/// whole 16-feature panels, each with code of its own, which the threads share out (a classifier head is a
/// matrix-vector product that reads megabytes of weights once); otherwise one call on the calling thread.
///
/// Without generated code, where the Swift micro-kernels run and the shape does not favour BLAS
/// (``Conv2DKernel``'s rule), the weights are packed at load for ``PanelGEMM``, whose sums are the generated code's:
/// bias first, then the inputs in order. The threads share out runs of whole panels.
public struct FullyConnectedKernel: Sendable {
    /// Rows of input and output.
    public let batch: Int
    /// Input features per row.
    public let inputSize: Int
    /// Output features per row.
    public let outputSize: Int

    /// Copy of the weights, `[outputSize, inputSize]`, for CBLAS (empty when generated code or ``PanelGEMM`` runs).
    private let weights: [Float]
    /// `[outputSize]`: the bias, zeros for ``PanelGEMM`` when the layer has none; empty when generated code runs, or
    /// for CBLAS when the layer has no bias.
    private let bias: [Float]
    private let clamp: ClampRange
    /// The generated GEMM of each slice of output features, when prepared with it (then ``weights`` and ``bias`` are
    /// empty): `(first feature, code)`.
    private let generated: [(start: Int, code: Conv2DGEMMCode)]
    /// The weights packed for ``PanelGEMM`` when runs use it (then ``weights`` is empty).
    private let panels: PackedPanels?

    /// Whether runs use the generated AVX2/FMA code rather than CBLAS.
    public var usesGeneratedCode: Bool { !generated.isEmpty }

    /// The code runs use: generated, CBLAS, or the Swift micro-kernel (or, without a BLAS library on a target
    /// where the micro-kernels do not run, ``GEMM``'s Swift loops).
    public var kernelFamily: KernelFamily {
        usesGeneratedCode ? .generated : panels == nil && GEMM.isBLASAvailable ? .blas : .swiftSIMD
    }

    /// Output features the generated code is cut into for threads (1 without generated code).
    public var sliceCount: Int { max(1, generated.count) }

    /// Multiply-adds below which a chunk is not worth a thread.
    static let minimumChunkWork = 1 << 15
    /// The most ranges of output features a CBLAS run is cut into (whatever the pool: see `run`), enough to share
    /// among four threads.
    static let blasChunks = 4 * ThreadPool.chunksPerThread

    /// Copies `weights` (`[outputSize, inputSize]`) and `bias` (`[outputSize]` or `nil`). Neither pointer is
    /// retained. All sizes must be positive. `generatesMachineCode` asks for the generated AVX2/FMA code, used when
    /// ``HostCPU`` supports it and the sizes fit (see ``usesGeneratedCode``); `threadCount` is the pool size runs
    /// will use, for which one-row layers are sliced.
    public init(
        batch: Int, inputSize: Int, outputSize: Int,
        weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?, clamp: ClampRange,
        generatesMachineCode: Bool = false, threadCount: Int = 1
    ) {
        self.init(
            batch: batch, inputSize: inputSize, outputSize: outputSize, weights: weights, bias: bias, clamp: clamp,
            generatesMachineCode: generatesMachineCode, threadCount: threadCount, microKernel: nil)
    }

    /// The public initializer with the Swift path's choice made by the caller: `microKernel` true runs ``PanelGEMM``
    /// and false CBLAS (or ``GEMM``'s loops) wherever no generated code runs; nil chooses as the public initializer
    /// does. For tests, which check both on every target.
    package init(
        batch: Int, inputSize: Int, outputSize: Int,
        weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?, clamp: ClampRange,
        generatesMachineCode: Bool = false, threadCount: Int = 1, microKernel: Bool?
    ) {
        precondition(
            batch > 0 && inputSize > 0 && outputSize > 0,
            "FullyConnectedKernel: batch \(batch), inputSize \(inputSize), outputSize \(outputSize)")
        self.batch = batch
        self.inputSize = inputSize
        self.outputSize = outputSize
        self.clamp = clamp
        if generatesMachineCode && HostCPU.supportsGeneratedAVX2 {
            let zeros = [Float](repeating: 0, count: outputSize)
            var slices: [(start: Int, code: Conv2DGEMMCode)] = []
            let bounds = Self.sliceBounds(
                batch: batch, inputSize: inputSize, outputSize: outputSize, threads: threadCount)
            zeros.withUnsafeBufferPointer { zeroBuffer in
                guard let allBias = bias ?? zeroBuffer.baseAddress else { return }
                for (start, end) in zip(bounds, bounds.dropFirst()) {
                    let panels = Conv2DFilterPanels(
                        filter: weights + start * inputSize, k: inputSize, outputChannels: end - start)
                    guard
                        let code = Conv2DGEMMCode(panels: panels, bias: allBias + start, clamp: clamp, epilogue: .none)
                    else {
                        slices = []
                        return
                    }
                    slices.append((start, code))
                }
            }
            generated = slices
        } else {
            generated = []
        }
        let usesPanels =
            generated.isEmpty
            && (microKernel ?? Conv2DKernel.choosesMicroKernel(m: batch, n: outputSize, k: inputSize))
        panels =
            usesPanels
            ? PackedPanels(k: inputSize, n: outputSize, b: weights, rowStride: 1, columnStride: inputSize) : nil
        if generated.isEmpty {
            self.weights =
                usesPanels ? [] : Array(UnsafeBufferPointer(start: weights, count: outputSize * inputSize))
            self.bias =
                bias.map { Array(UnsafeBufferPointer(start: $0, count: outputSize)) }
                ?? (usesPanels ? [Float](repeating: 0, count: outputSize) : [])
        } else {
            (self.weights, self.bias) = ([], [])
        }
    }

    /// The first feature of each slice, then `outputSize`: one slice unless the layer has one row and enough work for
    /// `threads`; slices are whole 16-feature panels of at least 2¹⁵ multiply-adds, a few per thread.
    static func sliceBounds(batch: Int, inputSize: Int, outputSize: Int, threads: Int) -> [Int] {
        let panels = outputSize / 16
        let count =
            batch == 1
            ? ThreadPool.chunkCount(min(panels, outputSize * inputSize / minimumChunkWork), threads: threads) : 1
        return (0..<count).map { panels * $0 / count * 16 } + [outputSize]
    }

    /// Computes `output` (`[batch, outputSize]`) from `input` (`[batch, inputSize]`); they must not overlap.
    /// Allocates nothing.
    public func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pool: ThreadPool) {
        if generated.count == 1 {
            generated[0].code.run(a: input, lda: inputSize, c: output, rows: batch, residual: nil)
            return
        }
        if !generated.isEmpty {
            // Slices exist only for one row, so a slice's output features are contiguous in `output`.
            let features = self.inputSize
            generated.withUnsafeBufferPointer { slices in
                pool.parallelFor(
                    slices.count, Slices(slices: slices, input: input, inputSize: features, output: output))
            }
            return
        }
        let batch = batch
        let inputSize = inputSize
        let outputSize = outputSize
        let clamp = clamp
        if let panels {
            bias.withUnsafeBufferPointer { biasBuffer in
                guard let biasPointer = biasBuffer.baseAddress else { return }
                // Each output is summed alike however the panels are cut, so the cut may follow the pool.
                let minimumPanels = max(1, Self.minimumChunkWork / (batch * inputSize * PackedPanels.maximumWidth))
                pool.parallelRanges(
                    panels.widths.count, minimumChunk: minimumPanels,
                    PanelRuns(
                        batch: batch, input: input, panels: panels, bias: biasPointer, clamp: clamp,
                        output: output))
            }
            return
        }
        weights.withUnsafeBufferPointer { weightBuffer in
            bias.withUnsafeBufferPointer { biasBuffer in
                guard let weightPointer = weightBuffer.baseAddress else { return }
                // An empty array still has a non-nil base address.
                let biasPointer = biasBuffer.isEmpty ? nil : biasBuffer.baseAddress
                // A cut fixed by the shape alone: BLAS's sums depend on each call's shape, and so the bits must not
                // depend on the pool's thread count.
                let minimumChunk = max(8, Self.minimumChunkWork / (batch * inputSize))
                pool.parallelRanges(
                    outputSize, fixedChunks: min(Self.blasChunks, outputSize / minimumChunk),
                    Columns(
                        batch: batch, inputSize: inputSize, outputSize: outputSize, input: input,
                        weights: weightPointer, bias: biasPointer, output: output, clamp: clamp))
            }
        }
    }

    /// One slice of the generated code per task.
    private struct Slices: ParallelTaskBody {
        let slices: UnsafeBufferPointer<(start: Int, code: Conv2DGEMMCode)>
        let input: UnsafePointer<Float>
        let inputSize: Int
        let output: UnsafeMutablePointer<Float>

        func run(task: Int) {
            let slice = slices[task]
            slice.code.run(a: input, lda: inputSize, c: output + slice.start, rows: 1, residual: nil)
        }
    }

    /// A run's panels, in ranges: one ``PanelGEMM`` call per range.
    private struct PanelRuns: ParallelRangeBody {
        let batch: Int
        let input: UnsafePointer<Float>
        let panels: PackedPanels
        let bias: UnsafePointer<Float>
        let clamp: ClampRange
        let output: UnsafeMutablePointer<Float>

        func run(range: Range<Int>) {
            PanelGEMM.multiply(
                rows: batch, a: input, lda: panels.k, panels: panels, panelRange: range, bias: bias, clamp: clamp,
                c: output, ldc: panels.n)
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
