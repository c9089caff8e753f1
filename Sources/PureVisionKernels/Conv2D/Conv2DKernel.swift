/// Prepared 2-D convolution (NHWC input, OHWI filter) lowered to ``GEMM``: `M` = output pixels, `K` =
/// `kernelHeight · kernelWidth · inputChannels`, `N` = `outputChannels`.
///
/// A 1×1 convolution with unit stride and no padding, and one whose kernel covers the whole unpadded input (one
/// output pixel per image), multiply the input in place (NHWC already is `[M, K]`); every other shape gathers blocks of output pixels' receptive fields (im2col, zero-filling padding) into caller
/// scratch and multiplies each block. Each output block is prefilled with the bias and the GEMM adds the product to
/// it; the clamp and the ``OutputEpilogue`` (a fused residual ADD, PRELU or activation) follow right after, while
/// the block is still in cache. Without generated code, where the target has the registers for it
/// (``SwiftKernelTarget/runsMicroKernels``: AVX or arm64), each block multiplies with the portable Swift micro-kernel
/// ``PanelGEMM`` (filter packed into 16-channel panels at load, bias and clamp in registers) unless CBLAS wins there
/// (many output pixels, and `K` or `N` above 32); elsewhere with CBLAS. A direct convolution with more channels than
/// output pixels shares its panels, not its rows, between threads. With more than one thread, the output is cut into
/// several blocks per thread: each thread runs its own contiguous share of them and then takes over what is left of
/// the others' (so a thread held up by the machine leaves its blocks to the others); each thread owns one slot of
/// scratch.
///
/// When prepared with `generatesMachineCode` on a CPU with AVX2 + FMA, each block instead runs code generated at
/// load (``Conv2DGEMMCode``): the filter packed into 16-channel panels, the bias, clamp and the epilogue's clamp /
/// PReLU / residual steps applied in registers before the only store, interior receptive fields of k×k and strided
/// convolutions read from the input without im2col. When `outputChannels % 8 != 0`, the code stores each row's last
/// vector in pieces, so it writes the output directly for any channel count. Its sums follow XNNPACK's order and
/// rounding (``Reference/Arithmetic/xnnpack``); the CBLAS path rounds differently in the last bits.
public struct Conv2DKernel: Sendable {
    /// The geometry this kernel was prepared for.
    public let geometry: Conv2DGeometry

    /// Filter repacked to `[K, N]` row-major for CBLAS: row `(ky · kernelWidth + kx) · inputChannels + i`, column
    /// `o`. Empty when the generated code or the Swift micro-kernel runs instead.
    private let packedFilter: [Float]
    /// The filter packed into panels for the Swift micro-kernel (``PanelGEMM``), when it runs instead of CBLAS.
    private let panels: PackedPanels?
    /// With ``panels``, for a direct convolution with more channels than output pixels on several threads: runs of
    /// panels, each one task over all output rows (the Swift twin of ``generatedColumnParts``). Empty otherwise.
    private let panelParts: [Range<Int>]
    /// The generated GEMM for this kernel's clamp and epilogue, when there is one.
    private var generated: Conv2DGEMMCode?
    /// Generated code for the same GEMM reading a k×k convolution's receptive fields straight from the input (one
    /// run of `kernelWidth · inputChannels` floats per filter row), for output pixels whose taps all lie inside it;
    /// the others still go through im2col and ``generated``.
    private var generatedInPlace: Conv2DGEMMCode?
    /// With generated code: the epilogue steps it does not apply, run in Swift after it on each block.
    private var trailingEpilogue: OutputEpilogue = .none
    /// For a direct convolution (1×1, or a kernel covering the whole input) with fewer output pixels than channels,
    /// run on several threads: generated code for disjoint runs of filter panels, one task each over all rows.
    /// Cutting such a layer by rows would have every thread stream all the weights, which outweigh its input (the
    /// last layers of a classifier or a landmark model); cut by columns, each thread reads its share. Empty
    /// otherwise, or when the epilogue has steps the code cannot apply.
    private var generatedColumnParts: [Conv2DGEMMCode] = []
    /// ``generatedColumnParts`` unretained, for the tasks of a run to call without touching their reference counts
    /// from several threads (the kernel keeps them alive).
    private var columnPartReferences: [Unmanaged<Conv2DGEMMCode>] = []
    /// How many column parts a run uses when ``generatedColumnParts`` can be generated; 0 when the kernel cuts by
    /// rows.
    private let columnPartCount: Int
    /// `[outputChannels]`; zeros when the convolution has no bias. Each output block starts as copies of it and the
    /// GEMM accumulates onto them, which saves BLAS's separate zeroing pass.
    private let bias: [Float]
    private let clamp: ClampRange
    /// Element-wise steps applied to each output block after the clamp.
    public private(set) var epilogue: OutputEpilogue = .none
    /// Whether each run passes the bias its sums start from (prepared with `biasAtRunTime`).
    public let takesBiasAtRunTime: Bool
    /// Whether the input is used directly as the GEMM's left matrix (a 1×1 convolution reading pixels in place, or a
    /// kernel covering the whole input).
    private let isDirect: Bool
    /// Whether the Swift micro-kernel reads the receptive fields of interior pixels in place, one run per filter
    /// row, and gathers only the pixels near the border (a k×k convolution with undilated columns and a row's worth
    /// of interior pixels).
    private let panelsReadInPlace: Bool
    /// Output pixels per GEMM block.
    private let blockRows: Int
    /// Scratch slots: one per thread that may run blocks at once.
    private let slotCount: Int
    /// Floats of one slot: the im2col block (none for a direct convolution).
    private let slotFloats: Int

    /// At most this many threads run blocks of one run concurrently, each with its own scratch slot.
    static let maximumSlots = 8
    /// Target floats in one block's im2col rows (or output rows, whichever is wider): about 256 KiB.
    static let blockFloatBudget = 1 << 16
    /// Multiply-adds below which a block is not split further to give every thread one (the hand-off would cost
    /// more than it saves).
    static let minimumParallelWork = 1 << 16
    /// The thread count the CBLAS path cuts its blocks for, whatever the pool (see `init`): enough blocks to share
    /// among four threads.
    static let blasPartitionThreads = 4

    /// Packs `filter` (OHWI, `[outputChannels, kernelHeight, kernelWidth, inputChannels]`) and copies `bias`
    /// (`[outputChannels]` or `nil`). Neither pointer is retained. `threadCount` is the pool size runs will use:
    /// when the work is large enough to share, the output is cut into several blocks per thread, and scratch holds
    /// one slot per thread.
    /// `generatesMachineCode` asks for the generated AVX2/FMA GEMM; it is used when ``HostCPU`` supports it and the
    /// shape does (see ``usesGeneratedCode``), else the CBLAS path runs.
    /// With `biasAtRunTime`, `bias` is ignored and every run passes the bias its sums start from
    /// (``run(input:output:residual:bias:scratch:pool:)``, ``runBiasFloatCount`` floats): the same arithmetic as a
    /// kernel prepared with that bias. `instructions` picks the generated code's vectors (AVX-512 where the CPU has
    /// it, by default).
    public init(
        geometry: Conv2DGeometry, filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?, clamp: ClampRange,
        threadCount: Int = 1, generatesMachineCode: Bool = false, biasAtRunTime: Bool = false,
        instructions: GeneratedInstructionSet = .best
    ) {
        self.init(
            geometry: geometry, filter: filter, bias: bias, clamp: clamp, threadCount: threadCount,
            generatesMachineCode: generatesMachineCode, biasAtRunTime: biasAtRunTime, instructions: instructions,
            microKernel: nil)
    }

    /// The public initializer with the Swift path's choice made by the caller: `microKernel` true runs ``PanelGEMM``
    /// and false CBLAS wherever no generated code runs; nil chooses as the public initializer does (by the target
    /// and the shape). For tests, which check both on every target.
    package init(
        geometry: Conv2DGeometry, filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?, clamp: ClampRange,
        threadCount: Int = 1, generatesMachineCode: Bool = false, biasAtRunTime: Bool = false,
        instructions: GeneratedInstructionSet = .best, microKernel: Bool?
    ) {
        precondition(geometry.isValid, "Conv2DKernel: invalid geometry \(geometry)")
        let g = geometry
        self.geometry = g
        self.clamp = clamp
        takesBiasAtRunTime = biasAtRunTime
        let k = g.window.kernelHeight * g.window.kernelWidth * g.inputChannels
        let n = g.outputChannels
        let m = g.batch * g.outputHeight * g.outputWidth
        isDirect = g.readsPixelsInPlace || g.readsWholeImageAsPatch
        if generatesMachineCode && HostCPU.supportsGeneratedAVX2 {
            let zeros = [Float](repeating: 0, count: n)
            let panels = Conv2DFilterPanels(filter: filter, k: k, outputChannels: n, instructions: instructions)
            let inPlace =
                !isDirect && g.window.dilationHeight == 1 && g.window.dilationWidth == 1
                && g.interiorColumns.count >= Conv2DGEMMCode.tileRows
            (generated, generatedInPlace) = zeros.withUnsafeBufferPointer { zeroBuffer in
                guard let biasPointer = bias ?? zeroBuffer.baseAddress else { return (nil, nil) }
                return Self.generate(
                    geometry: g, panels: panels, bias: biasPointer, clamp: clamp, epilogue: .none, inPlace: inPlace,
                    biasAtRunTime: biasAtRunTime)
            }
        } else {
            (generated, generatedInPlace) = (nil, nil)
        }
        let usesPanels =
            generated == nil
            && (!GEMM.isBLASAvailable
                || (microKernel ?? Self.choosesMicroKernel(m: m, n: n, k: k)))
        let panels = usesPanels ? PackedPanels(k: k, n: n, b: filter, rowStride: 1, columnStride: k) : nil
        self.panels = panels
        panelsReadInPlace =
            usesPanels && !isDirect && g.window.dilationWidth == 1 && g.interiorColumns.count >= PanelGEMM.tileRows
        self.packedFilter =
            generated != nil || usesPanels
            ? []
            : [Float](unsafeUninitializedCapacity: k * n) { buffer, count in
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
        var rows = min(m, max(8, Self.blockFloatBudget / max(k, n)))
        let threads = min(max(1, threadCount), Self.maximumSlots)
        // The generated code computes every output row alike however the rows are cut, so its blocks are sized for
        // the pool at hand. BLAS's sums depend on a call's shape (its own blocking, a one-row call's matrix-vector
        // kernel), so on that path the cut is made for `blasPartitionThreads` whatever the pool: every thread count
        // then gives the bits one thread gives.
        // The Swift micro-kernel, like the generated code, computes a row the same in any block.
        let partitionThreads = generated != nil || usesPanels ? threads : Self.blasPartitionThreads
        if partitionThreads > 1 && m * n * k >= partitionThreads * Self.minimumParallelWork {
            // Several blocks per thread (each still worth handing off), so that the threads share the work out
            // dynamically; rows in whole tiles of the generated GEMM where blocks are that tall.
            let byWork = m * n * k / Self.minimumParallelWork
            let blocks = max((m + rows - 1) / rows, min(partitionThreads * ThreadPool.chunksPerThread, byWork))
            rows = (m + blocks - 1) / blocks
            let tile = generated?.tileRows ?? (usesPanels ? PanelGEMM.tileRows : Conv2DGEMMCode.tileRows)
            if rows > tile { rows = (rows + tile - 1) / tile * tile }
        }
        blockRows = max(1, rows)
        let blockCount = (m + blockRows - 1) / blockRows
        slotCount = min(blockCount, threads)
        slotFloats = isDirect ? 0 : blockRows * k
        // A direct convolution with fewer output pixels than channels, worth sharing, goes by columns (whole panels)
        // on either path that has panels: the generated code's or the micro-kernel's.
        let cutsByColumns =
            isDirect && threads > 1 && n > m && m * n * k >= threads * Self.minimumParallelWork
        func columnParts(panelCount: Int) -> Int {
            cutsByColumns && panelCount >= threads ? min(panelCount, threads * Self.columnPartsPerThread) : 0
        }
        columnPartCount = columnParts(panelCount: generated?.panels.panelWidths.count ?? 0)
        let swiftPanelCount = panels?.widths.count ?? 0
        panelParts = Self.panelRanges(swiftPanelCount, parts: columnParts(panelCount: swiftPanelCount))
        if let generated {
            useColumnParts(
                self.bias.withUnsafeBufferPointer { biasBuffer in
                    guard let biasPointer = biasBuffer.baseAddress else { return [] }
                    return Self.columnParts(
                        columnPartCount, panels: generated.panels, bias: biasPointer, clamp: clamp, epilogue: .none,
                        biasAtRunTime: biasAtRunTime)
                })
        }
    }

    /// Whether a product of `m × k` by `k × n` runs faster through CBLAS than through ``PanelGEMM``.
    ///
    /// Never on OpenBLAS: the micro-kernel ran every convolution of the bench models as fast or faster, at one and at
    /// two threads (x86 built for AVX2 + FMA), and it sums in XNNPACK's order where OpenBLAS sums in its own.
    /// Accelerate's `sgemm` runs on the matrix unit of recent Apple chips, which cannot be measured here, so there the
    /// earlier rule stays: BLAS for many rows (it packs both operands on every call, which pays off only when many
    /// rows share it) unless `k` and `n` are both small.
    static func prefersBLAS(m: Int, n: Int, k: Int) -> Bool {
        GEMM.callsAccelerate && !(m <= 256 || (k <= 32 && n <= 32))
    }

    /// Whether a product of `m × k` by `k × n` without generated code runs on ``PanelGEMM`` rather than CBLAS, when
    /// both are available: where the micro-kernels run and the shape does not favour BLAS. The float and the 8-bit
    /// convolutions choose alike.
    static func choosesMicroKernel(m: Int, n: Int, k: Int) -> Bool {
        SwiftKernelTarget.runsMicroKernels && !prefersBLAS(m: m, n: n, k: k)
    }

    /// `count` panels cut into `parts` consecutive runs as equal as whole panels allow ([] when `parts` is 0).
    private static func panelRanges(_ count: Int, parts: Int) -> [Range<Int>] {
        (0..<parts).map { part in (count * part / parts)..<(count * (part + 1) / parts) }
    }

    /// Sets ``generatedColumnParts`` and their unretained references.
    private mutating func useColumnParts(_ parts: [Conv2DGEMMCode]) {
        generatedColumnParts = parts
        columnPartReferences = parts.map { .passUnretained($0) }
    }

    /// Column parts per thread of a kernel cut by columns (see ``generatedColumnParts``): a thread slow to start
    /// leaves some of its share to the other.
    static let columnPartsPerThread = 2

    /// Code for each of `count` runs of `panels`' panels (as equal in columns as whole panels allow), or [] when
    /// `count` is 0 or any part cannot be generated or leaves epilogue steps to Swift.
    private static func columnParts(
        _ count: Int, panels: Conv2DFilterPanels, bias: UnsafePointer<Float>, clamp: ClampRange,
        epilogue: OutputEpilogue, biasAtRunTime: Bool
    ) -> [Conv2DGEMMCode] {
        guard count > 0 else { return [] }
        let widths = panels.panelWidths
        var parts: [Conv2DGEMMCode] = []
        var first = 0
        var columnsBefore = 0
        for part in 0..<count {
            // Panels up to the part's share of the columns, at least one, leaving one for each later part (the last
            // part's share is every column, so it takes all that remain).
            let target = panels.n * (part + 1) / count
            var end = first + 1
            var columns = columnsBefore + widths[first]
            while end < widths.count - (count - 1 - part) && columns + widths[end] <= target {
                columns += widths[end]
                end += 1
            }
            guard
                let code = Conv2DGEMMCode(
                    panels: panels, bias: bias, clamp: clamp, epilogue: epilogue, panelRange: first..<end,
                    biasAtRunTime: biasAtRunTime),
                code.remainingEpilogue.isEmpty
            else { return [] }
            parts.append(code)
            columnsBefore = widths[..<end].reduce(0, +)
            first = end
        }
        return parts
    }

    /// Whether runs use the generated AVX2/FMA GEMM rather than CBLAS.
    public var usesGeneratedCode: Bool { generated != nil }

    /// The generated code's vectors, or nil without generated code.
    public var generatedInstructions: GeneratedInstructionSet? { generated?.panels.instructions }

    /// Floats of the bias a kernel that ``takesBiasAtRunTime`` reads each run: one per output channel, rounded up to
    /// the generated code's panels (the extra ones zero).
    public var runBiasFloatCount: Int { generated?.runBiasFloatCount ?? geometry.outputChannels }

    /// Whether runs share the output's columns between threads (see ``generatedColumnParts``) instead of its rows.
    package var cutsByColumns: Bool { !generatedColumnParts.isEmpty }

    /// The code runs use: generated, the Swift micro-kernel, or CBLAS.
    public var kernelFamily: KernelFamily { generated != nil ? .generated : panels != nil ? .swiftSIMD : .blas }

    /// Whether runs of the Swift micro-kernel share the output's columns between threads instead of its rows.
    package var cutsByPanelColumns: Bool { !panelParts.isEmpty }

    /// Whether the generated code reads a k×k (or strided) convolution's interior receptive fields straight from the
    /// input instead of gathering them (im2col) first.
    public var readsInputInPlace: Bool { generatedInPlace != nil }

    /// How many of ``epilogue``'s steps the generated code applies in registers (0 without generated code); the
    /// others run in Swift on each block.
    public var generatedEpilogueStepCount: Int {
        generated == nil ? 0 : epilogue.steps.count - trailingEpilogue.steps.count
    }

    /// The same prepared convolution (weights shared, not repacked) with `epilogue` applied to its output. With
    /// generated code, the code is generated again with the epilogue's steps in registers.
    public func withEpilogue(_ epilogue: OutputEpilogue) -> Conv2DKernel {
        var copy = self
        copy.epilogue = epilogue
        copy.trailingEpilogue = epilogue
        if let generated, !epilogue.isEmpty {
            let fused = bias.withUnsafeBufferPointer { biasBuffer -> (Conv2DGEMMCode?, Conv2DGEMMCode?) in
                guard let biasPointer = biasBuffer.baseAddress else { return (nil, nil) }
                return Self.generate(
                    geometry: geometry, panels: generated.panels, bias: biasPointer, clamp: clamp,
                    epilogue: epilogue, inPlace: generatedInPlace != nil, biasAtRunTime: takesBiasAtRunTime)
            }
            // Should generation fail now, the epilogue-free code stays and the whole epilogue runs in Swift.
            if let blocks = fused.0, (fused.1 != nil) == (generatedInPlace != nil) {
                copy.generated = blocks
                copy.generatedInPlace = fused.1
                copy.trailingEpilogue = blocks.remainingEpilogue
            }
            copy.useColumnParts(
                bias.withUnsafeBufferPointer { biasBuffer in
                    guard let biasPointer = biasBuffer.baseAddress, copy.trailingEpilogue.isEmpty else { return [] }
                    return Self.columnParts(
                        columnPartCount, panels: generated.panels, bias: biasPointer, clamp: clamp, epilogue: epilogue,
                        biasAtRunTime: takesBiasAtRunTime)
                })
        }
        return copy
    }

    /// The generated GEMM for contiguous rows of `A` and, when `inPlace`, the one reading receptive fields from
    /// the input; (nil, nil) when the first cannot be generated, (code, nil) when only the second cannot.
    private static func generate(
        geometry g: Conv2DGeometry, panels: Conv2DFilterPanels, bias: UnsafePointer<Float>, clamp: ClampRange,
        epilogue: OutputEpilogue, inPlace: Bool, biasAtRunTime: Bool
    ) -> (Conv2DGEMMCode?, Conv2DGEMMCode?) {
        guard
            let blocks = Conv2DGEMMCode(
                panels: panels, bias: bias, clamp: clamp, epilogue: epilogue, biasAtRunTime: biasAtRunTime)
        else {
            return (nil, nil)
        }
        guard inPlace else { return (blocks, nil) }
        let rowFloats = g.window.kernelWidth * g.inputChannels
        let segments = Conv2DGEMMCode.KSegments(
            count: g.window.kernelHeight, jumpBytes: (g.inputWidth * g.inputChannels - rowFloats) * 4)
        return (
            blocks,
            Conv2DGEMMCode(
                panels: panels, bias: bias, clamp: clamp, epilogue: epilogue, segments: segments,
                biasAtRunTime: biasAtRunTime)
        )
    }

    /// Floats of scratch one ``run(input:output:residual:scratch:pool:)`` needs; 0 for a direct convolution.
    public var scratchFloatCount: Int {
        slotCount * slotFloats
    }

    /// Convolves `input` (`[batch, inputHeight, inputWidth, inputChannels]`) into `output`
    /// (`[batch, outputHeight, outputWidth, outputChannels]`). `scratch` holds at least ``scratchFloatCount``
    /// floats (any pointer when that is 0) and must not overlap input or output. `residual` is the tensor the
    /// epilogue adds, shaped like the output (required when the epilogue adds one; must not overlap the output).
    /// `bias` is this run's bias, ``runBiasFloatCount`` floats with zeros past `outputChannels`: required by a kernel
    /// that ``takesBiasAtRunTime``, ignored by others. Allocates nothing.
    public func run(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, residual: UnsafePointer<Float>? = nil,
        bias runBias: UnsafePointer<Float>? = nil, scratch: UnsafeMutablePointer<Float>, pool: ThreadPool
    ) {
        precondition(!epilogue.addsResidual || residual != nil, "Conv2DKernel: the epilogue needs a residual")
        precondition(!takesBiasAtRunTime || runBias != nil, "Conv2DKernel: this kernel takes a bias with each run")
        let runBias = takesBiasAtRunTime ? runBias : nil
        let g = geometry
        let m = g.batch * g.outputHeight * g.outputWidth
        if !columnPartReferences.isEmpty {
            // Direct: A is the input itself; each part writes its own columns of every output row.
            withExtendedLifetime(generatedColumnParts) {
                columnPartReferences.withUnsafeBufferPointer { parts in
                    guard let first = parts.baseAddress else { return }
                    pool.parallelFor(
                        parts.count,
                        ColumnParts(
                            parts: first, lda: g.window.kernelHeight * g.window.kernelWidth * g.inputChannels,
                            input: input,
                            output: output, residual: residual, bias: runBias, rows: m))
                }
            }
            return
        }
        if let panels, !panelParts.isEmpty {
            bias.withUnsafeBufferPointer { biasBuffer in
                guard let biasPointer = runBias ?? biasBuffer.baseAddress else { return }
                panelParts.withUnsafeBufferPointer { parts in
                    guard let first = parts.baseAddress else { return }
                    pool.parallelFor(
                        parts.count,
                        PanelColumnParts(
                            kernel: self, panels: panels, parts: first, input: input, output: output,
                            residual: residual, bias: biasPointer, rows: m))
                }
            }
            return
        }
        let blockCount = (m + blockRows - 1) / blockRows
        // Scratch has a slot per thread the kernel was prepared for; a larger pool runs the blocks on the caller.
        let parallelPool = pool.fitting(slots: slotCount)
        packedFilter.withUnsafeBufferPointer { packedBuffer in
            bias.withUnsafeBufferPointer { biasBuffer in
                guard let biasPointer = runBias ?? biasBuffer.baseAddress else { return }
                // Empty (and possibly nil) when the generated code runs, which does not read it.
                let packed = packedBuffer.baseAddress
                parallelPool.parallelTasks(
                    blockCount,
                    Blocks(
                        kernel: self, input: input, output: output, residual: residual, scratch: scratch,
                        packed: packed, bias: biasPointer))
            }
        }
    }

    /// Column part `task` of a run cut by columns (see ``generatedColumnParts``).
    private struct ColumnParts: ParallelTaskBody {
        let parts: UnsafePointer<Unmanaged<Conv2DGEMMCode>>
        let lda: Int
        let input: UnsafePointer<Float>
        let output: UnsafeMutablePointer<Float>
        let residual: UnsafePointer<Float>?
        let bias: UnsafePointer<Float>?
        let rows: Int

        func run(task: Int) {
            parts[task]._withUnsafeGuaranteedRef {
                $0.run(a: input, lda: lda, c: output, rows: rows, residual: residual, bias: bias)
            }
        }
    }

    /// Column part `task` of a run of the Swift micro-kernel cut by columns (see ``panelParts``): its panels over all
    /// rows, then the epilogue on those columns.
    private struct PanelColumnParts: ParallelTaskBody {
        let kernel: Conv2DKernel
        let panels: PackedPanels
        let parts: UnsafePointer<Range<Int>>
        let input: UnsafePointer<Float>
        let output: UnsafeMutablePointer<Float>
        let residual: UnsafePointer<Float>?
        let bias: UnsafePointer<Float>
        let rows: Int

        func run(task: Int) {
            let range = parts[task]
            let n = panels.n
            PanelGEMM.multiply(
                rows: rows, a: input, lda: panels.k, panels: panels, panelRange: range, bias: bias,
                clamp: kernel.clamp, c: output, ldc: n)
            if !kernel.epilogue.isEmpty, let last = range.last {
                let columns =
                    panels.columnStarts[range.lowerBound]..<min(n, panels.columnStarts[last] + panels.widths[last])
                kernel.epilogue.apply(rows: rows, channels: n, columns: columns, output: output, residual: residual)
            }
        }
    }

    /// Block `task` of a run, on pool thread `thread`, using scratch slot `thread`.
    private struct Blocks: ParallelThreadTaskBody {
        let kernel: Conv2DKernel
        let input: UnsafePointer<Float>
        let output: UnsafeMutablePointer<Float>
        let residual: UnsafePointer<Float>?
        let scratch: UnsafeMutablePointer<Float>
        let packed: UnsafePointer<Float>?
        let bias: UnsafePointer<Float>

        func run(task block: Int, thread: Int) {
            let g = kernel.geometry
            let k = g.window.kernelHeight * g.window.kernelWidth * g.inputChannels
            let n = g.outputChannels
            let m = g.batch * g.outputHeight * g.outputWidth
            let blockRows = kernel.blockRows
            let slot = scratch + thread * kernel.slotFloats
            let firstRow = block * blockRows
            let rows = min(blockRows, m - firstRow)
            let out = output + firstRow * n
            let blockResidual = residual.map { $0 + firstRow * kernel.epilogue.residualChannels(outputChannels: n) }
            if let inPlace = kernel.generatedInPlace, let generated = kernel.generated {
                kernel.runInPlace(
                    inPlace, generated, input: input, output: output, residual: residual, bias: bias,
                    firstRow: firstRow, rows: rows, slot: slot)
                if !kernel.trailingEpilogue.isEmpty {
                    kernel.trailingEpilogue.apply(rows: rows, channels: n, output: out, residual: blockResidual)
                }
                return
            }
            if let panels = kernel.panels, kernel.panelsReadInPlace {
                kernel.runPanelsInPlace(
                    panels, input: input, output: output, bias: bias, firstRow: firstRow, rows: rows, slot: slot)
                if !kernel.epilogue.isEmpty {
                    kernel.epilogue.apply(rows: rows, channels: n, output: out, residual: blockResidual)
                }
                return
            }
            let left: UnsafePointer<Float>
            if kernel.isDirect {
                left = input + firstRow * k
            } else {
                kernel.gatherPatches(input: input, firstRow: firstRow, rows: rows, into: slot)
                left = UnsafePointer(slot)
            }
            if let generated = kernel.generated {
                kernel.runGenerated(
                    generated, a: left, lda: k, output: out, rows: rows, residual: blockResidual, bias: bias)
                if !kernel.trailingEpilogue.isEmpty {
                    kernel.trailingEpilogue.apply(rows: rows, channels: n, output: out, residual: blockResidual)
                }
                return
            }
            if let panels = kernel.panels {
                PanelGEMM.multiply(
                    rows: rows, a: left, lda: k, panels: panels, panelRange: 0..<panels.widths.count, bias: bias,
                    clamp: kernel.clamp, c: out, ldc: n)
                if !kernel.epilogue.isEmpty {
                    kernel.epilogue.apply(rows: rows, channels: n, output: out, residual: blockResidual)
                }
                return
            }
            guard let packed else {
                preconditionFailure("Conv2DKernel: neither generated code nor a packed filter")
            }
            for row in 0..<rows { (out + row * n).update(from: bias, count: n) }
            GEMM.multiply(
                m: rows, n: n, k: k, a: left, lda: k, b: packed, ldb: n, layout: .kByN, c: out, ldc: n,
                accumulate: true)
            GEMM.applyBiasAndClamp(m: rows, n: n, c: out, ldc: n, bias: nil, clamp: kernel.clamp)
            if !kernel.epilogue.isEmpty {
                kernel.epilogue.apply(rows: rows, channels: n, output: out, residual: blockResidual)
            }
        }
    }

    /// Output pixels `firstRow ..< firstRow + rows` with generated code: per output row, the pixels whose receptive
    /// fields lie inside the input are read in place by `inPlace`; the others are gathered into `slot` (im2col)
    /// and multiplied by `blocks`. Applies the generated epilogue steps, not ``trailingEpilogue``.
    private func runInPlace(
        _ inPlace: Conv2DGEMMCode, _ blocks: Conv2DGEMMCode, input: UnsafePointer<Float>,
        output: UnsafeMutablePointer<Float>, residual: UnsafePointer<Float>?, bias: UnsafePointer<Float>,
        firstRow: Int, rows: Int, slot: UnsafeMutablePointer<Float>
    ) {
        let g = geometry
        let n = g.outputChannels
        let k = g.window.kernelHeight * g.window.kernelWidth * g.inputChannels
        let residualStride = epilogue.residualChannels(outputChannels: n)
        forEachPixelRun(firstRow: firstRow, rows: rows, input: input) { first, count, pixels in
            let a: UnsafePointer<Float>
            let lda: Int
            let code: Conv2DGEMMCode
            if let pixels {
                (a, lda, code) = (pixels, g.window.strideWidth * g.inputChannels, inPlace)
            } else {
                gatherPatches(input: input, firstRow: first, rows: count, into: slot)
                (a, lda, code) = (UnsafePointer(slot), k, blocks)
            }
            runGenerated(
                code, a: a, lda: lda, output: output + first * n, rows: count,
                residual: residual.map { $0 + first * residualStride }, bias: bias)
        }
    }

    /// Output pixels `firstRow ..< firstRow + rows` with the Swift micro-kernel, as ``runInPlace``: the pixels whose
    /// receptive fields lie inside the input read it in place (one run of `A` per filter row), the others are
    /// gathered into `slot`. The same sums as gathering every pixel. Applies no epilogue.
    private func runPanelsInPlace(
        _ panels: PackedPanels, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        bias: UnsafePointer<Float>, firstRow: Int, rows: Int, slot: UnsafeMutablePointer<Float>
    ) {
        let g = geometry
        let n = g.outputChannels
        let k = panels.k
        let filterRows: PanelGEMM.RowRuns = (
            count: g.window.kernelHeight, length: g.window.kernelWidth * g.inputChannels,
            stride: g.window.dilationHeight * g.inputWidth * g.inputChannels
        )
        let allPanels = 0..<panels.widths.count
        forEachPixelRun(firstRow: firstRow, rows: rows, input: input) { first, count, pixels in
            if let pixels {
                PanelGEMM.multiply(
                    rows: count, a: pixels, lda: g.window.strideWidth * g.inputChannels, panels: panels,
                    panelRange: allPanels, bias: bias, clamp: clamp, c: output + first * n, ldc: n, runs: filterRows)
            } else {
                gatherPatches(input: input, firstRow: first, rows: count, into: slot)
                PanelGEMM.multiply(
                    rows: count, a: slot, lda: k, panels: panels, panelRange: allPanels, bias: bias, clamp: clamp,
                    c: output + first * n, ldc: n)
            }
        }
    }

    /// Cuts output pixels `firstRow ..< firstRow + rows` into runs within output rows and calls `body(first, count,
    /// pixels)` for each in order: `pixels` is the input pixel under the first one's top-left tap when every tap of
    /// the run's pixels lies inside the input (the ``Conv2DGeometry/interiorColumns`` of a row whose filter rows are
    /// all inside), else nil.
    private func forEachPixelRun(
        firstRow: Int, rows: Int, input: UnsafePointer<Float>,
        _ body: (_ first: Int, _ count: Int, _ pixels: UnsafePointer<Float>?) -> Void
    ) {
        let g = geometry
        let imagePixels = g.outputHeight * g.outputWidth
        let interiorColumns = g.interiorColumns
        var row = firstRow
        let end = firstRow + rows
        while row < end {
            let b = row / imagePixels
            let oy = (row % imagePixels) / g.outputWidth
            let ox = row % g.outputWidth
            let rowEnd = min(end, row - ox + g.outputWidth)
            let iy = oy * g.window.strideHeight - g.window.paddingTop
            let lower = max(ox, interiorColumns.lowerBound)
            let upper = min(ox + rowEnd - row, interiorColumns.upperBound)
            if iy >= 0 && iy + (g.window.kernelHeight - 1) * g.window.dilationHeight < g.inputHeight && lower < upper {
                if lower > ox { body(row, lower - ox, nil) }
                let ix = lower * g.window.strideWidth - g.window.paddingLeft
                body(
                    row + lower - ox, upper - lower,
                    input + ((b * g.inputHeight + iy) * g.inputWidth + ix) * g.inputChannels)
                let after = row + upper - ox
                if after < rowEnd { body(after, rowEnd - after, nil) }
            } else {
                body(row, rowEnd - row, nil)
            }
            row = rowEnd
        }
    }

    /// Runs generated code on `rows` rows of `A` (row stride `lda` floats) into `output` (rows of `outputChannels`);
    /// `bias` is the run's, read only by code that takes its bias at run time.
    private func runGenerated(
        _ code: Conv2DGEMMCode, a: UnsafePointer<Float>, lda: Int, output: UnsafeMutablePointer<Float>, rows: Int,
        residual: UnsafePointer<Float>?, bias: UnsafePointer<Float>
    ) {
        code.run(a: a, lda: lda, c: output, rows: rows, residual: residual, bias: bias)
    }

    /// im2col: writes the receptive fields of output pixels `firstRow ..< firstRow + rows` (flattened over batch,
    /// outputHeight, outputWidth) as `rows × K` row-major floats, zeros where a tap falls outside the input.
    private func gatherPatches(
        input: UnsafePointer<Float>, firstRow: Int, rows: Int, into patches: UnsafeMutablePointer<Float>
    ) {
        let g = geometry
        let window = g.window
        let cin = g.inputChannels
        let (kernelHeight, kernelWidth) = (window.kernelHeight, window.kernelWidth)
        let (strideHeight, strideWidth) = (window.strideHeight, window.strideWidth)
        let (dilationHeight, dilationWidth) = (window.dilationHeight, window.dilationWidth)
        let (inputHeight, inputWidth) = (g.inputHeight, g.inputWidth)
        let (outputHeight, outputWidth) = (g.outputHeight, g.outputWidth)
        let rowSpan = kernelWidth * cin
        let k = kernelHeight * rowSpan
        let inputRowFloats = inputWidth * cin
        let imageFloats = inputHeight * inputRowFloats
        let lastTapColumn = (kernelWidth - 1) * dilationWidth
        var b = firstRow / (outputHeight * outputWidth)
        var oy = (firstRow / outputWidth) % outputHeight
        var ox = firstRow % outputWidth
        // Every offset below lies inside `input` or `patches` (the geometry is valid and the caller's block is in
        // range); wrapping arithmetic keeps overflow checks out of this per-pixel loop.
        var patch = patches
        for _ in 0..<rows {
            let image = input + b &* imageFloats
            let ix0 = ox &* strideWidth &- window.paddingLeft
            let columnsInside = dilationWidth == 1 && ix0 >= 0 && ix0 &+ lastTapColumn < inputWidth
            var target = patch
            var iy = oy &* strideHeight &- window.paddingTop
            for _ in 0..<kernelHeight {
                if iy < 0 || iy >= inputHeight {
                    zeroShortFloatRun(target, count: rowSpan)
                } else if columnsInside {
                    copyShortFloatRun(from: image + (iy &* inputRowFloats &+ ix0 &* cin), to: target, count: rowSpan)
                } else {
                    let inputRow = image + iy &* inputRowFloats
                    var ix = ix0
                    var tap = target
                    for _ in 0..<kernelWidth {
                        if ix < 0 || ix >= inputWidth {
                            zeroShortFloatRun(tap, count: cin)
                        } else {
                            copyShortFloatRun(from: inputRow + ix &* cin, to: tap, count: cin)
                        }
                        ix &+= dilationWidth
                        tap += cin
                    }
                }
                target += rowSpan
                iy &+= dilationHeight
            }
            patch += k
            ox &+= 1
            if ox == outputWidth {
                ox = 0
                oy &+= 1
                if oy == outputHeight {
                    oy = 0
                    b &+= 1
                }
            }
        }
    }
}
