#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

/// How ``QuantizedConv2DKernel`` multiplies when it does not run generated code.
///
/// The float path is exact: the kernel multiplies `x − 128` or `x` (within ±128, as is the padding's zero point) by
/// weights `w` as float, through ``GEMM`` (BLAS: OpenBLAS on Linux, Accelerate on Apple platforms) or the Swift
/// micro-kernel (``PanelGEMM``). Every product and every partial sum, in whatever order the library adds them, is an
/// integer of magnitude at most `128 · Σ|w|` over the channel's weights; the kernel takes this path only when that
/// bound is at most 2^24 for every channel, where float represents each such integer, so each addition and fused
/// multiply-add rounds to itself and the result equals the int32 accumulation. (A BLAS that reduced precision below
/// float32 would break this; neither library does by default; the micro-kernel adds in `k` order.) The accumulators are
/// then converted to int32 and requantized as the integer path does.
public enum QuantizedGEMMArithmetic: Sendable, Hashable {
    /// Built for AVX2, int16 multiply-adds in 256-bit vectors always (twice the lanes of a float multiply-add per
    /// instruction, and no conversions). Otherwise float where it is exact and the convolution has at least
    /// ``QuantizedConv2DKernel/smallestFloatGEMMPixels`` output pixels (a one-row layer reads 4-byte weights for one
    /// use each, twice the int16 path's bytes): through the Swift micro-kernel (``PanelGEMM``) where it runs and the
    /// shape is one ``Conv2DKernel`` also gives it, else through BLAS when a BLAS library is loaded; int16
    /// multiply-adds otherwise.
    case automatic
    /// int16 multiply-adds in Swift SIMD (SSE2 `pmaddwd`, AVX2 `vpmaddwd` when built for AVX2, NEON `smull` and
    /// `addp` on arm64).
    case integer
    /// Float through ``GEMM`` (BLAS, or its portable loops when no BLAS is loaded) wherever it is exact, whatever the
    /// size (for tests); int16 where it would not be exact.
    case exactFloat
    /// Float through the Swift micro-kernel (``PanelGEMM``) wherever it is exact, whatever the target or the size (for
    /// tests); int16 where it would not be exact.
    case exactFloatMicroKernel

    /// How a convolution multiplies in float, or nil when it multiplies in int16.
    enum FloatGEMM {
        /// ``GEMM``: BLAS, or its portable loops.
        case blas
        /// ``PanelGEMM`` over weights packed at load.
        case microKernel
    }

    /// How a convolution of `pixels` output pixels, `depth` products per output and `outputs` channels multiplies
    /// in float, or nil for int16; `exact` from the kernel's bound.
    func floatGEMM(exact: Bool, pixels: Int, depth: Int, outputs: Int) -> FloatGEMM? {
        guard exact else { return nil }
        switch self {
        case .automatic:
            guard pixels >= QuantizedConv2DKernel.smallestFloatGEMMPixels,
                !QuantizedConv2DKernel.multipliesWideIntegers
            else { return nil }
            if Conv2DKernel.choosesMicroKernel(m: pixels, n: outputs, k: depth) {
                return .microKernel
            }
            return GEMM.isBLASAvailable ? .blas : nil
        case .integer: return nil
        case .exactFloat: return .blas
        case .exactFloatMicroKernel: return .microKernel
        }
    }
}

extension QuantizedConv2DKernel {
    /// The largest integer magnitude float represents together with all smaller ones: 2^24.
    static let largestExactFloatSum: Int64 = 1 << 24

    /// Below this many output pixels, ``QuantizedGEMMArithmetic/automatic`` keeps the int16 path.
    public static let smallestFloatGEMMPixels = 16

    /// Floats a thread's gathered rows, or its accumulators, may take (256 KiB each), as ``Conv2DKernel``'s blocks.
    static let floatTileBudget = 1 << 16

    /// The weights (`weight(o · depth + k)`, clamped to int16 as the integer path packs them) as float,
    /// `[depth][outputs]` (BLAS's `k × n`).
    static func floatWeights(_ weight: (Int) -> Int32, depth: Int, outputs: Int) -> UnsafeMutablePointer<Float> {
        let result = UnsafeMutablePointer<Float>.allocate(capacity: max(1, depth * outputs))
        for o in 0..<outputs {
            for k in 0..<depth {
                (result + k * outputs + o).initialize(to: Float(Int16(clamping: weight(o * depth + k))))
            }
        }
        return result
    }

    /// The weights packed for ``PanelGEMM``, from the `[depth][outputs]` float matrix ``floatWeights`` makes.
    static func floatPanels(_ weight: (Int) -> Int32, depth: Int, outputs: Int) -> PackedPanels {
        let matrix = floatWeights(weight, depth: depth, outputs: outputs)
        defer { matrix.deallocate() }
        return PackedPanels(k: depth, n: outputs, b: matrix, rowStride: outputs, columnStride: 1)
    }

    /// Output pixels per GEMM call and tasks per run for the float path: as many pixels as fit the budget, cut into
    /// several tasks per thread when threads share the run.
    static func floatTiles(pixels: Int, depth: Int, outputs: Int, threads: Int) -> (tile: Int, tasks: Int) {
        var tile = min(pixels, max(8, floatTileBudget / max(depth, outputs)))
        if threads > 1 {
            let tiles = max((pixels + tile - 1) / tile, ThreadPool.chunkCount(pixels / 8, threads: threads))
            tile = (pixels + tiles - 1) / tiles
        }
        tile = max(1, tile)
        return (tile, (pixels + tile - 1) / tile)
    }

    /// Weight blocks (8 output channels each) per task on the BLAS path when the threads share a run's channels, or []
    /// when they share its pixels.
    ///
    /// Each BLAS call packs the whole weight matrix before it multiplies, so cutting few pixels (a 7×7 or 14×14 layer)
    /// into tasks of a few rows each packs the weights once per task: on two threads that doubled the packing and
    /// gained nothing. With fewer than ``smallestBLASRowTile`` pixels per task, the tasks take runs of whole 8-channel
    /// blocks instead (two per thread), every pixel each, so that each packs only its own columns. The sums are exact
    /// however the work is cut (see ``QuantizedGEMMArithmetic``).
    static func blasBlockParts(pixels: Int, depth: Int, outputs: Int, threads: Int) -> [Range<Int>] {
        guard threads > 1,
            floatTiles(pixels: pixels, depth: depth, outputs: outputs, threads: threads).tile < smallestBLASRowTile
        else { return [] }
        let blocks = (outputs + 7) / 8
        let parts = min(blocks, threads * 2)
        return parts > 1 ? blockRuns(blocks, parts: parts, step: 1) : []
    }

    /// Below this many pixels per task, the BLAS path's tasks share the output channels instead of the pixels.
    static let smallestBLASRowTile = 32

    /// Tiles `first ..< last` of a run on the float path: gather (or convert) each tile's receptive fields as float
    /// into `slot`, multiply them by the float weights (``floatWeights`` through ``GEMM``, or ``floatPanels`` through
    /// ``PanelGEMM``) into the accumulators after them, requantize into `output`. Only the output `channels` are
    /// computed: all of them, or on the BLAS path a part of them (whole 8-channel blocks, ``blockParts``).
    func runFloatTiles(
        first: Int, last: Int, channels: Range<Int>, _ input: UnsafePointer<Int8>,
        _ output: UnsafeMutablePointer<Int8>, slot: UnsafeMutableRawPointer
    ) {
        let g = geometry
        let outputs = g.outputChannels
        let pixels = g.batch * g.outputHeight * g.outputWidth
        let rows = slot.assumingMemoryBound(to: Float.self)
        let sums = rows + tile * depth
        // When the input is already the im2col matrix, a tile's rows are converted in one run.
        let pointwise = g.readsPixelsInPlace
        for index in first..<last {
            let start = index * tile
            let count = min(tile, pixels - start)
            if pointwise {
                convert(input + start * depth, into: rows, count: count * depth)
            } else {
                for p in 0..<count { gatherFloat(pixel: start + p, input: input, into: rows + p * depth) }
            }
            if let floatPanels {
                // Each sum starts at 0 and adds its integer products: exact in any order (see the arithmetic).
                PanelGEMM.multiply(
                    rows: count, a: rows, lda: depth, panels: floatPanels, panelRange: 0..<floatPanels.widths.count,
                    bias: floatZeros, clamp: .none, c: sums, ldc: outputs)
            } else if let floatWeights {
                // Zeroed here and accumulated into: OpenBLAS's own zeroing for β = 0 is a slower separate pass.
                for p in 0..<count {
                    (sums + p * outputs + channels.lowerBound).update(repeating: 0, count: channels.count)
                }
                GEMM.multiply(
                    m: count, n: channels.count, k: depth, a: rows, lda: depth,
                    b: floatWeights + channels.lowerBound, ldb: outputs, layout: .kByN,
                    c: sums + channels.lowerBound, ldc: outputs, accumulate: true)
            }
            for p in 0..<count {
                requantize(sums + p * outputs, into: output + (start + p) * outputs, channels: channels)
            }
        }
    }

    /// Writes the receptive field of output pixel `pixel` as `depth` floats (padding as the input zero point).
    private func gatherFloat(pixel: Int, input: UnsafePointer<Int8>, into row: UnsafeMutablePointer<Float>) {
        let padding = Float(inputZeroPoint)
        forEachReceptiveSpan(pixel: pixel, input: input) { source, offset, count in
            if let source {
                convert(source, into: row + offset, count: count)
            } else {
                (row + offset).update(repeating: padding, count: count)
            }
        }
    }

    /// Writes the `count` bytes at `input` as float (sign bit flipped first for uint8).
    @inline(__always)
    private func convert(_ input: UnsafePointer<Int8>, into out: UnsafeMutablePointer<Float>, count: Int) {
        let source = UnsafeRawPointer(input)
        let flips = SIMD8<Int16>(repeating: Int16(flip) << 8)
        let target = UnsafeMutableRawPointer(out)
        var i = 0
        while i + 8 <= count {
            let wide = SIMD8<Int32>(truncatingIfNeeded: Self.widen(source + i, flips: flips))
            target.storeBytes(of: SIMD8<Float>(wide), toByteOffset: i &* 4, as: SIMD8<Float>.self)
            i &+= 8
        }
        while i < count {
            out[i] = Float(Int8(bitPattern: source.load(fromByteOffset: i, as: UInt8.self) ^ flip))
            i += 1
        }
    }

    /// Requantizes `channels` of one pixel's float accumulators (exact integers, see ``QuantizedGEMMArithmetic``)
    /// into `out`; `channels` starts at a multiple of 8.
    @inline(__always)
    private func requantize(
        _ sums: UnsafePointer<Float>, into out: UnsafeMutablePointer<Int8>, channels: Range<Int>
    ) {
        let outputs = channels.upperBound
        var o = channels.lowerBound
        if lanes.isUsable {
            let raw = UnsafeRawPointer(sums)
            let bias = UnsafeRawPointer(biasTerms)
            while o + 8 <= outputs {
                let low = Self.integers(raw.loadUnaligned(fromByteOffset: o &* 4, as: SIMD4<Float>.self))
                let high = Self.integers(raw.loadUnaligned(fromByteOffset: o &* 4 &+ 16, as: SIMD4<Float>.self))
                // biasTerms holds whole blocks of 8, so both loads stay inside it.
                let lowBias = bias.loadUnaligned(fromByteOffset: o &* 4, as: SIMD4<Int32>.self)
                let highBias = bias.loadUnaligned(fromByteOffset: o &* 4 &+ 16, as: SIMD4<Int32>.self)
                RequantizationLanes.storeInOrder(
                    lanes.apply(low &+ lowBias, group: o / 4), lanes.apply(high &+ highBias, group: o / 4 + 1),
                    flip: flip, to: out + o)
                o &+= 8
            }
        }
        while o < outputs {
            let acc = Int32(sums[o]) &+ biasTerms[o]
            let scaled = channelMultipliers[o].apply(acc, rounding: rounding) &+ outputZeroPoint
            out[o] = Int8(bitPattern: UInt8(truncatingIfNeeded: range.clamp(scaled)) ^ flip)
            o += 1
        }
    }

    /// Float lanes holding integers within ±2^24, as int32.
    @inline(__always)
    private static func integers(_ v: SIMD4<Float>) -> SIMD4<Int32> {
        #if arch(x86_64)
            unsafeBitCast(_mm_cvttps_epi32(v), to: SIMD4<Int32>.self)
        #else
            SIMD4<Int32>(v, rounding: .towardZero)
        #endif
    }
}
