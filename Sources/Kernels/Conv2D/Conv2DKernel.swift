/// Prepared 2-D convolution (NHWC input, OHWI filter) lowered to ``GEMM``: `M` = output pixels, `K` =
/// `kernelHeight · kernelWidth · inputChannels`, `N` = `outputChannels`.
///
/// A 1×1 convolution with unit stride and no padding multiplies the input in place (NHWC already is `[M, K]`);
/// every other shape gathers blocks of output pixels' receptive fields (im2col, zero-filling padding) into caller
/// scratch and multiplies each block. Each output block is prefilled with the bias and the GEMM adds the product to
/// it; the clamp and the ``OutputEpilogue`` (a fused residual ADD, PRELU or activation) follow right after, while
/// the block is still in cache. Blocks are split over the pool's threads; each concurrently running chunk owns one
/// slot of scratch.
public struct Conv2DKernel: Sendable {
    /// The geometry this kernel was prepared for.
    public let geometry: Conv2DGeometry

    /// Filter repacked to `[K, N]` row-major: row `(ky · kernelWidth + kx) · inputChannels + i`, column `o`.
    private let packedFilter: [Float]
    /// `[outputChannels]`; zeros when the convolution has no bias. Each output block starts as copies of it and the
    /// GEMM accumulates onto them, which saves BLAS's separate zeroing pass.
    private let bias: [Float]
    private let clamp: ClampRange
    /// Element-wise steps applied to each output block after the clamp.
    public private(set) var epilogue: OutputEpilogue = .none
    /// Whether the input is used directly as the GEMM's left matrix.
    private let isDirect: Bool
    /// Output pixels per GEMM block.
    private let blockRows: Int
    /// Scratch slots, hence the most chunks a run splits into.
    private let slotCount: Int

    /// At most this many chunks of a run proceed concurrently, each with its own scratch slot.
    static let maximumSlots = 8
    /// Target floats in one block's im2col rows (or output rows, whichever is wider): about 256 KiB.
    static let blockFloatBudget = 1 << 16
    /// Multiply-adds below which a block is not split further to give every thread one (the hand-off would cost
    /// more than it saves).
    static let minimumParallelWork = 1 << 16

    /// Packs `filter` (OHWI, `[outputChannels, kernelHeight, kernelWidth, inputChannels]`) and copies `bias`
    /// (`[outputChannels]` or `nil`). Neither pointer is retained. `threadCount` is the pool size runs will use:
    /// the output is cut into a multiple of that many blocks when the work is large enough to share.
    public init(
        geometry: Conv2DGeometry, filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?, clamp: ClampRange,
        threadCount: Int = 1
    ) {
        precondition(geometry.isValid, "Conv2DKernel: invalid geometry \(geometry)")
        let g = geometry
        self.geometry = g
        self.clamp = clamp
        let k = g.kernelHeight * g.kernelWidth * g.inputChannels
        let n = g.outputChannels
        self.packedFilter = [Float](unsafeUninitializedCapacity: k * n) { buffer, count in
            guard let packed = buffer.baseAddress else {
                count = 0
                return
            }
            for o in 0..<n {
                for p in 0..<k { packed[p * n + o] = filter[o * k + p] }
            }
            count = k * n
        }
        if let bias {
            self.bias = Array(UnsafeBufferPointer(start: bias, count: n))
        } else {
            self.bias = [Float](repeating: 0, count: n)
        }
        isDirect =
            g.kernelHeight == 1 && g.kernelWidth == 1 && g.strideHeight == 1 && g.strideWidth == 1
            && g.paddingTop == 0 && g.paddingLeft == 0
            && g.inputHeight == g.outputHeight && g.inputWidth == g.outputWidth
        let m = g.batch * g.outputHeight * g.outputWidth
        var rows = min(m, max(8, Self.blockFloatBudget / max(k, n)))
        let threads = min(max(1, threadCount), Self.maximumSlots)
        if threads > 1 && m * n * k >= threads * Self.minimumParallelWork {
            // Round the block count up to a multiple of the threads so that each gets the same number of rows.
            let blocks = ((m + rows - 1) / rows + threads - 1) / threads * threads
            rows = (m + blocks - 1) / blocks
        }
        blockRows = max(1, rows)
        let blockCount = (m + blockRows - 1) / blockRows
        slotCount = min(blockCount, Self.maximumSlots)
    }

    /// The same prepared convolution (weights shared, not repacked) with `epilogue` applied to its output.
    public func withEpilogue(_ epilogue: OutputEpilogue) -> Conv2DKernel {
        var copy = self
        copy.epilogue = epilogue
        return copy
    }

    /// Floats of scratch one ``run(input:output:residual:scratch:pool:)`` needs; 0 for a direct 1×1 convolution.
    public var scratchFloatCount: Int {
        isDirect ? 0 : slotCount * blockRows * geometry.kernelHeight * geometry.kernelWidth * geometry.inputChannels
    }

    /// Convolves `input` (`[batch, inputHeight, inputWidth, inputChannels]`) into `output`
    /// (`[batch, outputHeight, outputWidth, outputChannels]`). `scratch` holds at least ``scratchFloatCount``
    /// floats (any pointer when that is 0) and must not overlap input or output. `residual` is the tensor the
    /// epilogue adds, shaped like the output (required when the epilogue adds one; must not overlap the output).
    /// Allocates nothing.
    public func run(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, residual: UnsafePointer<Float>? = nil,
        scratch: UnsafeMutablePointer<Float>, pool: ThreadPool
    ) {
        precondition(!epilogue.addsResidual || residual != nil, "Conv2DKernel: the epilogue needs a residual")
        let g = geometry
        let m = g.batch * g.outputHeight * g.outputWidth
        let blockCount = (m + blockRows - 1) / blockRows
        let chunks = min(pool.threadCount, slotCount)
        packedFilter.withUnsafeBufferPointer { packedBuffer in
            bias.withUnsafeBufferPointer { biasBuffer in
                guard let packed = packedBuffer.baseAddress, let biasPointer = biasBuffer.baseAddress else { return }
                pool.parallelFor(
                    chunks,
                    Blocks(
                        kernel: self, input: input, output: output, residual: residual, scratch: scratch,
                        packed: packed,
                        bias: biasPointer, blockCount: blockCount, chunks: chunks))
            }
        }
    }

    /// Chunk `task` of a run: a contiguous range of output blocks, using scratch slot `task`.
    private struct Blocks: ParallelTaskBody {
        let kernel: Conv2DKernel
        let input: UnsafePointer<Float>
        let output: UnsafeMutablePointer<Float>
        let residual: UnsafePointer<Float>?
        let scratch: UnsafeMutablePointer<Float>
        let packed: UnsafePointer<Float>
        let bias: UnsafePointer<Float>
        let blockCount: Int
        let chunks: Int

        func run(task chunk: Int) {
            let g = kernel.geometry
            let k = g.kernelHeight * g.kernelWidth * g.inputChannels
            let n = g.outputChannels
            let m = g.batch * g.outputHeight * g.outputWidth
            let blockRows = kernel.blockRows
            let slot = scratch + chunk * blockRows * k
            for block in (blockCount * chunk / chunks)..<(blockCount * (chunk + 1) / chunks) {
                let firstRow = block * blockRows
                let rows = min(blockRows, m - firstRow)
                let left: UnsafePointer<Float>
                if kernel.isDirect {
                    left = input + firstRow * k
                } else {
                    kernel.gatherPatches(input: input, firstRow: firstRow, rows: rows, into: slot)
                    left = UnsafePointer(slot)
                }
                let out = output + firstRow * n
                for row in 0..<rows { (out + row * n).update(from: bias, count: n) }
                GEMM.multiply(
                    m: rows, n: n, k: k, a: left, lda: k, b: packed, ldb: n, layout: .kByN, c: out, ldc: n,
                    accumulate: true)
                GEMM.applyBiasAndClamp(m: rows, n: n, c: out, ldc: n, bias: nil, clamp: kernel.clamp)
                if !kernel.epilogue.isEmpty {
                    kernel.epilogue.apply(
                        rows: rows, channels: n, output: out,
                        residual: residual.map { $0 + firstRow * kernel.epilogue.residualChannels(outputChannels: n) })
                }
            }
        }
    }

    /// im2col: writes the receptive fields of output pixels `firstRow ..< firstRow + rows` (flattened over batch,
    /// outputHeight, outputWidth) as `rows × K` row-major floats, zeros where a tap falls outside the input.
    private func gatherPatches(
        input: UnsafePointer<Float>, firstRow: Int, rows: Int, into patches: UnsafeMutablePointer<Float>
    ) {
        let g = geometry
        let cin = g.inputChannels
        let k = g.kernelHeight * g.kernelWidth * cin
        let rowSpan = g.kernelWidth * cin
        var b = firstRow / (g.outputHeight * g.outputWidth)
        var oy = (firstRow / g.outputWidth) % g.outputHeight
        var ox = firstRow % g.outputWidth
        for row in 0..<rows {
            let patch = patches + row * k
            let image = input + b * g.inputHeight * g.inputWidth * cin
            let iy0 = oy * g.strideHeight - g.paddingTop
            let ix0 = ox * g.strideWidth - g.paddingLeft
            let columnsInside = ix0 >= 0 && ix0 + (g.kernelWidth - 1) * g.dilationWidth < g.inputWidth
            for ky in 0..<g.kernelHeight {
                let target = patch + ky * rowSpan
                let iy = iy0 + ky * g.dilationHeight
                if iy < 0 || iy >= g.inputHeight {
                    target.update(repeating: 0, count: rowSpan)
                    continue
                }
                let inputRow = image + iy * g.inputWidth * cin
                if columnsInside && g.dilationWidth == 1 {
                    target.update(from: inputRow + ix0 * cin, count: rowSpan)
                    continue
                }
                for kx in 0..<g.kernelWidth {
                    let ix = ix0 + kx * g.dilationWidth
                    if ix < 0 || ix >= g.inputWidth {
                        (target + kx * cin).update(repeating: 0, count: cin)
                    } else {
                        (target + kx * cin).update(from: inputRow + ix * cin, count: cin)
                    }
                }
            }
            ox += 1
            if ox == g.outputWidth {
                ox = 0
                oy += 1
                if oy == g.outputHeight {
                    oy = 0
                    b += 1
                }
            }
        }
    }
}
