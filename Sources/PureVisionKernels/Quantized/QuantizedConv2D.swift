#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

/// How an int32 accumulator is scaled back to 8 bits.
public enum RequantizationRounding: Sendable, Hashable {
    /// TFLite's `MultiplyByQuantizedMultiplier` (doubling high multiply, then rounding shift).
    case double
    /// ruy's x86 requantization (ties of the final shift toward +∞), used by TFLite's int8 GEMM (CONV_2D,
    /// FULLY_CONNECTED).
    case ruy
    /// TFLite's optimized per-channel requantization of depthwise results: output channels in whole blocks of 8 go
    /// through its vector loop (NEON semantics, emulated on x86: `.ruy`), the remaining `channels % 8` through its
    /// scalar tail (`.double`).
    case channelBlocksOf8
    /// XNNPACK's ("fp32") requantization, which MediaPipe runs: `round(Float(acc) · scale)`, ties to even, with the
    /// multiplier's ``QuantizedMultiplier/floatScale``.
    case xnnpack

    /// The rounding of output channel `channel` of `channels`.
    @inline(__always)
    public func forChannel(_ channel: Int, of channels: Int) -> RequantizationRounding {
        guard self == .channelBlocksOf8 else { return self }
        return channel < channels / 8 * 8 ? .ruy : .double
    }
}

extension QuantizedMultiplier {
    @inline(__always) @usableFromInline
    func apply(_ x: Int32, rounding: RequantizationRounding) -> Int32 {
        switch rounding {
        case .ruy: applyRuy(x)
        case .xnnpack: applyXNNPACK(x)
        case .double, .channelBlocksOf8: apply(x)
        }
    }
}

/// Int8 CONV_2D on NHWC activations with OHWI int8 weights, per-channel (or per-tensor) multipliers and int32
/// bias; FULLY_CONNECTED runs as its 1×1 case.
///
/// At load the weights are widened to int16 and packed in blocks of 8 output channels and pairs of k (k running over
/// kernel rows, columns and input channels): `[block][k / 2][parity][4][2]`, the even channels (0, 2, 4, 6) of the
/// block in one 8-lane vector and the odd ones in the next, each channel as its two weights `(w[k], w[k + 1])`. Each
/// channel's constant term `bias − zeroPoint_in · Σ w` is precomputed. A run gathers 4 output pixels' receptive fields
/// into scratch once as int16 (padding holds the input zero point, so it adds nothing after the constant term), then
/// for each k pair broadcasts a pixel's `(x[k], x[k + 1])` to all lanes and multiply-adds it with the block's two
/// weight vectors, read as one 16-lane vector (`pmaddwd`: int16 × int16 products, adjacent pairs summed into int32,
/// exact for these ranges; one AVX2 `vpmaddwd`, or two SSE2 `pmaddwd`), accumulating the even and odd channels of
/// each pixel in int32, and requantizes each accumulator to int8 with the channel's multiplier, output zero point and
/// clamp. Built for AVX2, two blocks go together (QuantizedConv2D+Wide.swift).
///
/// Without generated code the multiplication can instead run in float through ``GEMM`` (BLAS) or the Swift
/// micro-kernel (``PanelGEMM``): see ``QuantizedGEMMArithmetic``.
public final class QuantizedConv2DKernel: ScratchSlotTaskKernel, @unchecked Sendable {
    /// The convolution's shapes.
    public let geometry: Conv2DGeometry
    let depth: Int
    let paddedDepth: Int
    /// 1×1, stride 1, no padding: output pixel p reads exactly input pixel p (``Conv2DGeometry/readsPixelsInPlace``).
    let isPointwise: Bool
    let blockCount: Int
    /// The packed int16 weights of the Swift integer path (see the type's description); empty when generated code
    /// (which packs its own) or the float path (``floatWeights``) runs.
    let weights: UnsafeMutablePointer<Int16>
    let biasTerms: UnsafeMutablePointer<Int32>
    /// One per output channel.
    let channelMultipliers: [QuantizedMultiplier]
    let inputZeroPoint: Int16
    let outputZeroPoint: Int32
    let range: QuantizedRange
    let rounding: RequantizationRounding
    /// 0x80 for uint8 activations (read as `x − 128`, written back with the sign bit flipped), else 0.
    let flip: UInt8
    let lanes: RequantizationLanes
    /// `biasTerms` in the even / odd lane groups of `lanes`.
    let biasLanes: UnsafeMutablePointer<SIMD4<Int32>>
    /// Threads the scratch has a slot for (the `threadCount` the kernel was made for).
    package let slotCount: Int
    /// Runs of whole tiles a run is cut into: several per thread, so that a thread that is slow to wake or
    /// descheduled leaves its tiles to the others instead of holding up the operator.
    package let taskCount: Int
    /// Output pixels gathered and multiplied together: 4 for the Swift path, ``QuantizedGEMMCode/tileRows`` for
    /// generated code.
    let tile: Int
    /// The generated GEMM, when the kernel was asked for it and the CPU and multipliers allow it.
    let generated: QuantizedGEMMCode?
    /// `generated`, for the tasks of a run to use without retaining it (the kernel keeps it alive).
    private let generatedReference: Unmanaged<QuantizedGEMMCode>?
    /// Generated gather of whole interior tiles for the VNNI code (else the Swift copies), when the CPU and geometry
    /// allow it (see ``QuantizedGatherCode``); made for `generated`'s `rowBytes`.
    let generatedGather: QuantizedGatherCode?
    /// The weights as float, `[depth][outputChannels]`, when the Swift path multiplies in float through ``GEMM``
    /// (see ``QuantizedGEMMArithmetic``); then ``tile`` output pixels are gathered and multiplied per GEMM call.
    let floatWeights: UnsafeMutablePointer<Float>?
    /// The weights as float packed for ``PanelGEMM``, when the Swift path multiplies in float through the
    /// micro-kernel (in place of ``floatWeights``).
    let floatPanels: PackedPanels?
    /// `outputChannels` zeros: the micro-kernel's bias (the integer bias terms are added when requantizing).
    let floatZeros: [Float]
    /// When the Swift paths' tasks share a run's output channels instead of its pixels, the weight blocks (8 output
    /// channels each) each task takes over every pixel: on the BLAS path with few pixels per task
    /// (``blasBlockParts(pixels:depth:outputs:threads:)``), and on the integer path with one output pixel
    /// (``oneRowBlockParts(blockCount:depth:threads:)``); empty when the tasks share the pixels.
    let blockParts: [Range<Int>]

    /// Bytes of scratch each thread uses: its gathered rows, and for generated code a tile of output rows (for a
    /// tile with fewer pixels than ``tile``) and the tail panel's buffer.
    var scratchPerThread: Int {
        if multipliesInFloat { return (tile * (depth + geometry.outputChannels) * 4 + 63) / 64 * 64 }
        return (tile * paddedDepth * 2 + (generated == nil ? 0 : tile * geometry.outputChannels + 6 * 16) + 63) / 64
            * 64
    }

    /// Bytes of scratch a run needs.
    public var scratchBytes: Int { slotCount * scratchPerThread }

    /// Whether runs use generated machine code (else the Swift SIMD loops or the float GEMM).
    public var usesGeneratedCode: Bool { generated != nil }

    /// The code runs use: generated, a float GEMM through CBLAS, or Swift SIMD (the float micro-kernel, ``GEMM``'s
    /// loops without CBLAS, or the integer loops).
    public var kernelFamily: KernelFamily {
        usesGeneratedCode ? .generated : floatWeights != nil && GEMM.isBLASAvailable ? .blas : .swiftSIMD
    }

    /// The generated code's multiply-adds, or nil without generated code.
    public var generatedInstructions: GeneratedInstructionSet? { generated?.instructions }

    /// Whether runs multiply in float, through ``GEMM`` or the Swift micro-kernel (see ``QuantizedGEMMArithmetic``).
    public var multipliesInFloat: Bool { floatWeights != nil || floatPanels != nil }

    /// Whether runs multiply in float through the Swift micro-kernel (``PanelGEMM``).
    package var multipliesWithMicroKernel: Bool { floatPanels != nil }

    /// Whether whole interior tiles are gathered by generated code (``QuantizedGatherCode``).
    package var usesGeneratedGather: Bool { generatedGather != nil }

    /// Whether the threads of a run share the output channels (each task one of the generated code's parts, or of
    /// ``blockParts``, over every pixel) instead of its pixels.
    package var cutsByColumns: Bool { (generated?.parts.count ?? 1) > 1 || !blockParts.isEmpty }

    /// Packs `filter` (OHWI, `outputChannels · kernelHeight · kernelWidth · inputChannels` int8 values) and folds
    /// `bias` (int32 per output channel, or nil) with the input zero point.
    /// - Parameters:
    ///   - multipliers: one per output channel, or one for all.
    ///   - range: the output clamp (type range narrowed by the fused activation).
    public convenience init(
        geometry: Conv2DGeometry, filter: UnsafePointer<Int8>, bias: UnsafePointer<Int32>?, inputZeroPoint: Int32,
        outputZeroPoint: Int32, multipliers: [QuantizedMultiplier], range: QuantizedRange,
        rounding: RequantizationRounding = .ruy, threadCount: Int = 1, generatesMachineCode: Bool = false,
        arithmetic: QuantizedGEMMArithmetic = .automatic, instructions: GeneratedInstructionSet = .best
    ) {
        self.init(
            geometry: geometry, weight: { Int32(filter[$0]) }, bias: bias, inputZeroPoint: inputZeroPoint,
            outputZeroPoint: outputZeroPoint, multipliers: multipliers, range: range, unsigned: false,
            rounding: rounding, threadCount: threadCount, generatesMachineCode: generatesMachineCode,
            arithmetic: arithmetic, instructions: instructions)
    }

    /// The general form: `weight(i)` is the i-th OHWI weight minus its zero point (within ±255); with `unsigned`
    /// the activations are uint8 (TFLite's uint8 convolution): zero points and `range` are then on the uint8 scale,
    /// the kernel works on `x − 128` and flips the sign bit of what it stores. With `generatesMachineCode`, on a CPU
    /// with AVX2 and for ruy rounding without left shifts, the GEMM runs as generated code (``QuantizedGEMMCode``);
    /// otherwise `arithmetic` chooses how the Swift path multiplies. `instructions` picks the generated code's
    /// multiply-adds (AVX-512 VNNI where the CPU has it and the weights fit int8, by default).
    public init(
        geometry: Conv2DGeometry, weight: (Int) -> Int32, bias: UnsafePointer<Int32>?, inputZeroPoint: Int32,
        outputZeroPoint: Int32, multipliers: [QuantizedMultiplier], range: QuantizedRange, unsigned: Bool,
        rounding: RequantizationRounding = .ruy, threadCount: Int = 1, generatesMachineCode: Bool = false,
        arithmetic: QuantizedGEMMArithmetic = .automatic, instructions: GeneratedInstructionSet = .best
    ) {
        let shift: Int32 = unsigned ? 128 : 0
        let inputZeroPoint = inputZeroPoint - shift
        let outputZeroPoint = outputZeroPoint - shift
        let range = QuantizedRange(lower: range.lower - shift, upper: range.upper - shift)
        flip = unsigned ? 0x80 : 0
        precondition(geometry.isValid, "invalid convolution geometry")
        precondition(
            multipliers.count == 1 || multipliers.count == geometry.outputChannels, "one multiplier per channel")
        precondition(
            rounding != .xnnpack || multipliers.allSatisfy { $0.floatScale != 0 || $0.multiplier == 0 },
            "XNNPACK's rounding needs each multiplier's floatScale")
        self.geometry = geometry
        let outputs = geometry.outputChannels
        depth = geometry.window.kernelHeight * geometry.window.kernelWidth * geometry.inputChannels
        paddedDepth = (depth + 1) & ~1
        isPointwise = geometry.readsPixelsInPlace
        blockCount = (outputs + 7) / 8
        biasTerms = .allocate(capacity: blockCount * 8)
        biasTerms.initialize(repeating: 0, count: blockCount * 8)
        // The largest Σ|w| over the output channels, for the float path's exactness bound.
        var largestMagnitudeSum: Int64 = 0
        for o in 0..<outputs {
            var sum: Int32 = 0
            var magnitudeSum: Int64 = 0
            for k in 0..<depth {
                let w = weight(o * depth + k)
                sum &+= w
                magnitudeSum += Int64(Int16(clamping: w).magnitude)
            }
            largestMagnitudeSum = max(largestMagnitudeSum, magnitudeSum)
            biasTerms[o] = (bias?[o] ?? 0) &- inputZeroPoint &* sum
        }
        channelMultipliers = multipliers.count == 1 ? Array(repeating: multipliers[0], count: outputs) : multipliers
        self.inputZeroPoint = Int16(clamping: inputZeroPoint)
        self.outputZeroPoint = outputZeroPoint
        self.range = range
        self.rounding = rounding
        let perChannel = channelMultipliers
        biasLanes = .allocate(capacity: blockCount * 2)
        for g in 0..<(blockCount * 2) {
            var v = SIMD4<Int32>()
            for j in 0..<4 { v[j] = biasTerms[8 * (g / 2) + 2 * j + g % 2] }
            (biasLanes + g).initialize(to: v)
        }
        let pixels = geometry.batch * geometry.outputHeight * geometry.outputWidth
        let threads = max(1, threadCount)
        if generatesMachineCode, HostCPU.supportsGeneratedAVX2 {
            let depth = depth
            // Fewer pixels than channels (a classifier head, the last small layers): the threads share the
            // channels, each part's weights read by one thread only, rather than rows that are too few to share.
            // VNNI panels are 32 channels wide (16 if a weight turns out not to fit int8, which only adds panels).
            let unit = QuantizedGEMMCode.allowsVNNI(instructions) ? 32 : 16
            let panels = QuantizedGEMMCode.panelWidths(outputChannels: outputs, unit: unit).count
            let partCount =
                threads > 1 && outputs > pixels && panels >= threads
                    && pixels * depth * outputs >= threads * Conv2DKernel.minimumParallelWork
                ? min(panels, threads * Conv2DKernel.columnPartsPerThread) : 1
            generated = QuantizedGEMMCode(
                depth: depth, paddedDepth: paddedDepth, outputChannels: outputs,
                weight: { o, k in Int16(clamping: weight(o * depth + k)) },
                biasTerms: biasTerms, multipliers: { perChannel[$0] }, rounding: rounding, zeroPoint: outputZeroPoint,
                range: range, flip: flip, partCount: partCount, instructions: instructions)
        } else {
            generated = nil
        }
        let inputMagnitude = max(128, Int64(self.inputZeroPoint.magnitude))
        let floatGEMM =
            generated == nil
            ? arithmetic.floatGEMM(
                exact: largestMagnitudeSum * inputMagnitude <= Self.largestExactFloatSum, pixels: pixels,
                depth: depth, outputs: outputs) : nil
        let floatPath = floatGEMM != nil
        lanes = RequantizationLanes(
            multipliers: { perChannel[$0] }, rounding: { _ in rounding }, channels: outputs,
            zeroPoint: outputZeroPoint, range: range, layout: floatPath ? .inOrder : .evenOdd)
        // Each path keeps only its own copy of the weights.
        floatWeights = floatGEMM == .blas ? Self.floatWeights(weight, depth: depth, outputs: outputs) : nil
        floatPanels = floatGEMM == .microKernel ? Self.floatPanels(weight, depth: depth, outputs: outputs) : nil
        floatZeros = floatGEMM == .microKernel ? [Float](repeating: 0, count: outputs) : []
        let packsInt16 = generated == nil && !floatPath
        weights = .allocate(capacity: packsInt16 ? blockCount * paddedDepth * 8 : 0)
        if packsInt16 {
            weights.initialize(repeating: 0, count: blockCount * paddedDepth * 8)
            for o in 0..<outputs {
                let (block, lane) = (o / 8, o % 8)
                for k in 0..<depth {
                    weights[(block * paddedDepth + (k & ~1)) * 8 + (lane & 1) * 8 + (lane >> 1) * 2 + (k & 1)] =
                        Int16(clamping: weight(o * depth + k))
                }
            }
        }
        generatedReference = generated.map { .passUnretained($0) }
        if let generated, generated.instructions == .avx512, !isPointwise, geometry.window.dilationWidth == 1 {
            let c = geometry.inputChannels
            generatedGather = QuantizedGatherCode(
                kernelRows: geometry.window.kernelHeight, span: geometry.window.kernelWidth * c,
                rowStride: geometry.window.dilationHeight * geometry.inputWidth * c,
                pixelStride: geometry.window.strideWidth * c,
                rowBytes: generated.rowBytes)
        } else {
            generatedGather = nil
        }
        slotCount = threads
        if floatGEMM == .blas {
            blockParts = Self.blasBlockParts(pixels: pixels, depth: depth, outputs: outputs, threads: threads)
        } else if generated == nil && !floatPath && pixels == 1 {
            blockParts = Self.oneRowBlockParts(blockCount: blockCount, depth: paddedDepth, threads: threads)
        } else {
            blockParts = []
        }
        if !blockParts.isEmpty {
            tile = floatPath ? Self.floatTiles(pixels: pixels, depth: depth, outputs: outputs, threads: 1).tile : 4
            taskCount = blockParts.count
        } else if floatPath {
            (tile, taskCount) = Self.floatTiles(pixels: pixels, depth: depth, outputs: outputs, threads: threads)
        } else if let generated, generated.parts.count > 1 {
            (tile, taskCount) = (QuantizedGEMMCode.tileRows, generated.parts.count)
        } else {
            tile = generated == nil ? 4 : QuantizedGEMMCode.tileRows
            taskCount = ThreadPool.chunkCount((pixels + tile - 1) / tile, threads: slotCount)
        }
    }

    deinit {
        weights.deallocate()
        floatWeights?.deallocate()
        biasTerms.deallocate()
        lanes.deallocate()
        biasLanes.deallocate()
    }

    /// Task `task` of a run (``ScratchSlotTaskKernel/run(input:output:scratch:pool:)``): its share of the tiles,
    /// gathered in scratch slot `thread`.
    package func runTask(
        task: Int, thread: Int, _ input: UnsafePointer<Int8>, _ output: UnsafeMutablePointer<Int8>,
        _ scratch: UnsafeMutablePointer<Int16>
    ) {
        let g = geometry
        let pixels = g.batch * g.outputHeight * g.outputWidth
        let size = tile
        let tiles = (pixels + size - 1) / size
        // Cut by columns, task `task` is part `task` over every tile.
        let byColumns = cutsByColumns
        let first = byColumns ? 0 : tiles * task / taskCount
        let last = byColumns ? tiles : tiles * (task + 1) / taskCount
        let base = UnsafeMutableRawPointer(scratch) + thread * scratchPerThread
        if multipliesInFloat {
            let channels =
                blockParts.isEmpty
                ? 0..<g.outputChannels
                : blockParts[task].lowerBound * 8..<min(g.outputChannels, blockParts[task].upperBound * 8)
            runFloatTiles(first: first, last: last, channels: channels, input, output, slot: base)
            return
        }
        let rows = base.assumingMemoryBound(to: Int16.self)
        guard let generatedReference else {
            let blocks = blockParts.isEmpty ? 0..<blockCount : blockParts[task]
            for index in first..<last {
                let start = index * size
                let count = min(size, pixels - start)
                gatherTile(start: start, count: count, input: input, into: rows)
                multiply(rows: rows, count: count, output: output + start * g.outputChannels, blocks: blocks)
            }
            return
        }
        generatedReference._withUnsafeGuaranteedRef { generated in
            let part = byColumns ? task : 0
            let columns = generated.parts[part]
            let outputs = g.outputChannels
            let gathersBytes = generated.instructions == .avx512
            // A pointwise layer whose pixels are whole rows of the VNNI code reads its full tiles in place.
            let readsInPlace = gathersBytes && isPointwise && g.inputChannels == generated.rowBytes
            for index in first..<last {
                let start = index * size
                let count = min(size, pixels - start)
                var tileRows = UnsafeRawPointer(rows)
                if readsInPlace && count == size {
                    tileRows = UnsafeRawPointer(input + start * g.inputChannels)
                } else if gathersBytes {
                    gatherTileBytes(
                        start: start, count: count, input: input, into: base.assumingMemoryBound(to: UInt8.self),
                        rowBytes: generated.rowBytes, rowXOR: generated.rowXOR)
                } else {
                    gatherTile(start: start, count: count, input: input, into: rows)
                }
                let out = UnsafeMutableRawPointer(output + start * outputs)
                // A short last tile is written to scratch in full, then its `count` rows are copied out.
                let tileOutput = base + size * paddedDepth * 2
                let tail = tileOutput + size * outputs
                let target = count == size ? out : tileOutput
                generated.run(part: part, rows: tileRows, output: target, tail: tail)
                if generated.tailChannels > 0 && columns.upperBound == outputs {
                    for p in 0..<size {
                        (target + p * outputs + generated.tailStart).copyMemory(
                            from: tail + p * 16, byteCount: generated.tailChannels)
                    }
                }
                if count < size {
                    if columns.count == outputs {
                        out.copyMemory(from: tileOutput, byteCount: count * outputs)
                    } else {
                        // Only this part's channels: the other parts write the rest of each row.
                        for p in 0..<count {
                            (out + p * outputs + columns.lowerBound).copyMemory(
                                from: tileOutput + p * outputs + columns.lowerBound, byteCount: columns.count)
                        }
                    }
                }
            }
        }
    }

    /// Gathers the tile of pixels `start ..< start + count` into `rows` (``tile`` rows; a short tile repeats its
    /// last pixel).
    @inline(__always)
    private func gatherTile(start: Int, count: Int, input: UnsafePointer<Int8>, into rows: UnsafeMutablePointer<Int16>)
    {
        if isPointwise {
            // Output pixel p reads input pixel p alone: the tile's pixels are consecutive input bytes, and no
            // receptive field needs working out (three divisions a pixel, as much as widening a 16-channel row).
            let c = geometry.inputChannels
            if c == paddedDepth && count == tile {
                widen(input + start * c, into: rows, count: tile * c)
                return
            }
            for p in 0..<tile {
                let row = rows + p * paddedDepth
                widen(input + (start + min(p, count - 1)) * c, into: row, count: c)
                if c < paddedDepth { row[c] = 0 }
            }
            return
        }
        // The first pixel's coordinates once, then stepped along the row (a short tile repeats its last pixel).
        let g = geometry
        let perImage = g.outputHeight * g.outputWidth
        var (b, oy, ox) = (start / perImage, (start % perImage) / g.outputWidth, start % g.outputWidth)
        for p in 0..<tile {
            gather(image: b, row: oy, column: ox, input: input, into: rows + p * paddedDepth)
            if p + 1 < count {
                ox += 1
                if ox == g.outputWidth { (ox, oy) = (0, oy + 1) }
                if oy == g.outputHeight { (oy, b) = (0, b + 1) }
            }
        }
    }

    /// ``gatherTile(start:count:input:into:)`` for the VNNI GEMM: each row as `rowBytes` stored activation bytes
    /// (the code XORs them with `rowXOR`), padding the byte that becomes the input zero point's `x + 128`, zeros past
    /// the depth (their weights are zero).
    @inline(__always)
    private func gatherTileBytes(
        start: Int, count: Int, input: UnsafePointer<Int8>, into rows: UnsafeMutablePointer<UInt8>, rowBytes: Int,
        rowXOR: UInt8
    ) {
        let source = UnsafeRawPointer(input).assumingMemoryBound(to: UInt8.self)
        if isPointwise {
            let c = geometry.inputChannels
            for p in 0..<tile {
                let row = rows + p * rowBytes
                Self.copy(
                    UnsafeRawPointer(source + (start + min(p, count - 1)) * c), into: UnsafeMutableRawPointer(row),
                    count: c)
                for k in c..<rowBytes { row[k] = 0 }
            }
            return
        }
        let g = geometry
        let perImage = g.outputHeight * g.outputWidth
        let padding = UInt8(truncatingIfNeeded: Int(inputZeroPoint) + 128) ^ rowXOR
        var (b, oy, ox) = (start / perImage, (start % perImage) / g.outputWidth, start % g.outputWidth)
        // A full tile in one output row whose every tap is inside the input (most tiles of a first layer): each
        // kernel row is one contiguous span, copied without the general walk.
        let (x0, y0) = (
            ox * g.window.strideWidth - g.window.paddingLeft, oy * g.window.strideHeight - g.window.paddingTop
        )
        if count == tile, g.window.dilationWidth == 1, ox + tile <= g.outputWidth, x0 >= 0,
            x0 + (tile - 1) * g.window.strideWidth + g.window.kernelWidth <= g.inputWidth, y0 >= 0,
            y0 + (g.window.kernelHeight - 1) * g.window.dilationHeight < g.inputHeight
        {
            let c = g.inputChannels
            let (span, inputRow) = (g.window.kernelWidth * c, g.inputWidth * c)
            var pixel = UnsafeRawPointer(source) + ((b * g.inputHeight + y0) * g.inputWidth + x0) * c
            if let generatedGather {
                generatedGather.run(source: pixel, rows: UnsafeMutableRawPointer(rows), count: tile)
                return
            }
            for p in 0..<tile {
                let row = UnsafeMutableRawPointer(rows + p * rowBytes)
                for ky in 0..<g.window.kernelHeight {
                    Self.copy(pixel + ky * g.window.dilationHeight * inputRow, into: row + ky * span, count: span)
                }
                for k in depth..<rowBytes { row.storeBytes(of: 0, toByteOffset: k, as: UInt8.self) }
                pixel += g.window.strideWidth * c
            }
            return
        }
        for p in 0..<tile {
            let row = rows + p * rowBytes
            forEachReceptiveSpan(image: b, row: oy, column: ox, input: input) { spanSource, offset, spanCount in
                if let spanSource {
                    Self.copy(
                        UnsafeRawPointer(spanSource), into: UnsafeMutableRawPointer(row + offset), count: spanCount)
                } else {
                    (row + offset).update(repeating: padding, count: spanCount)
                }
            }
            for k in depth..<rowBytes { row[k] = 0 }
            if p + 1 < count {
                ox += 1
                if ox == g.outputWidth { (ox, oy) = (0, oy + 1) }
                if oy == g.outputHeight { (oy, b) = (0, b + 1) }
            }
        }
    }

    /// `count` bytes from `source` to `destination`, without a call: 16 bytes at a time with the last 16 (or 8, or 4)
    /// overlapping the ones before, so a span of any length from 4 up is a few loads and stores.
    @inline(__always)
    private static func copy(_ source: UnsafeRawPointer, into destination: UnsafeMutableRawPointer, count: Int) {
        if count >= 16 {
            var i = 0
            while i + 16 < count {
                destination.storeBytes(
                    of: source.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self), toByteOffset: i,
                    as: SIMD16<UInt8>.self)
                i += 16
            }
            destination.storeBytes(
                of: source.loadUnaligned(fromByteOffset: count - 16, as: SIMD16<UInt8>.self), toByteOffset: count - 16,
                as: SIMD16<UInt8>.self)
        } else if count >= 8 {
            let (first, last) = (
                source.loadUnaligned(as: UInt64.self), source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            )
            destination.storeBytes(of: first, as: UInt64.self)
            destination.storeBytes(of: last, toByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4 {
            let (first, last) = (
                source.loadUnaligned(as: UInt32.self), source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            )
            destination.storeBytes(of: first, as: UInt32.self)
            destination.storeBytes(of: last, toByteOffset: count - 4, as: UInt32.self)
        } else {
            for i in 0..<count {
                destination.storeBytes(
                    of: source.load(fromByteOffset: i, as: UInt8.self), toByteOffset: i, as: UInt8.self)
            }
        }
    }

    /// Writes the receptive field of the output pixel at (`image`, `row`, `column`) as `paddedDepth` int16 values (a
    /// zero after an odd depth).
    @inline(__always)
    func gather(
        image: Int, row oy: Int, column ox: Int, input: UnsafePointer<Int8>, into row: UnsafeMutablePointer<Int16>
    ) {
        forEachReceptiveSpan(image: image, row: oy, column: ox, input: input) { source, offset, count in
            if let source {
                widen(source, into: row + offset, count: count)
            } else {
                (row + offset).update(repeating: inputZeroPoint, count: count)
            }
        }
        if depth < paddedDepth { row[depth] = 0 }
    }

    /// Walks the receptive field of output pixel `pixel` in k order as spans: `body(source, offset, count)` for
    /// `count` values starting at k = `offset`, read from `source` or, when it is nil, padding.
    @inline(__always)
    func forEachReceptiveSpan(
        pixel: Int, input: UnsafePointer<Int8>, _ body: (UnsafePointer<Int8>?, Int, Int) -> Void
    ) {
        let perImage = geometry.outputHeight * geometry.outputWidth
        forEachReceptiveSpan(
            image: pixel / perImage, row: (pixel % perImage) / geometry.outputWidth,
            column: pixel % geometry.outputWidth, input: input, body)
    }

    /// ``forEachReceptiveSpan(pixel:input:_:)`` for the output pixel at (`b`, `oy`, `ox`).
    @inline(__always)
    func forEachReceptiveSpan(
        image b: Int, row oy: Int, column ox: Int, input: UnsafePointer<Int8>,
        _ body: (UnsafePointer<Int8>?, Int, Int) -> Void
    ) {
        let g = geometry
        let c = g.inputChannels
        var k = 0
        let x0 = ox * g.window.strideWidth - g.window.paddingLeft
        // With dilation 1, a kernel row wholly inside the input is `kernelWidth · c` contiguous bytes.
        let wholeRows = g.window.dilationWidth == 1 && x0 >= 0 && x0 + g.window.kernelWidth <= g.inputWidth
        for ky in 0..<g.window.kernelHeight {
            let iy = oy * g.window.strideHeight - g.window.paddingTop + ky * g.window.dilationHeight
            let rowInside = iy >= 0 && iy < g.inputHeight
            if rowInside && wholeRows {
                body(input + ((b * g.inputHeight + iy) * g.inputWidth + x0) * c, k, g.window.kernelWidth * c)
                k += g.window.kernelWidth * c
                continue
            }
            for kx in 0..<g.window.kernelWidth {
                let ix = x0 + kx * g.window.dilationWidth
                body(
                    rowInside && ix >= 0 && ix < g.inputWidth
                        ? input + ((b * g.inputHeight + iy) * g.inputWidth + ix) * c : nil, k, c)
                k += c
            }
        }
    }

    /// Writes the `count` bytes at `input` as int16 (sign bit flipped first for uint8).
    @inline(__always)
    func widen(_ input: UnsafePointer<Int8>, into out: UnsafeMutablePointer<Int16>, count: Int) {
        let source = UnsafeRawPointer(input)
        let flips = SIMD8<Int16>(repeating: Int16(flip) << 8)
        var i = 0
        while i + 8 <= count {
            UnsafeMutableRawPointer(out + i).storeBytes(of: Self.widen(source + i, flips: flips), as: SIMD8<Int16>.self)
            i += 8
        }
        while i < count {
            out[i] = Int16(Int8(bitPattern: source.load(fromByteOffset: i, as: UInt8.self) ^ flip))
            i += 1
        }
    }

    /// Multiplies 4 gathered rows by every weight block and requantizes the first `count` of them into `output`, a
    /// block at a time: each k pair's weights for the block's 8 channels are one 16-lane vector (even channels, then
    /// odd), so a row's broadcast pair takes one 16-lane multiply-add per block (AVX2 `vpmaddwd`; two SSE2 `pmaddwd`,
    /// or NEON `smull` / `smull2` / `addp` per half, elsewhere). Built for AVX2, blocks go two at a time
    /// (QuantizedConv2D+Wide.swift). A tile of one row goes through ``multiplyOneRow(_:output:blocks:)``, which takes
    /// only the weight blocks in `blocks` (all of them but for a fully connected layer whose threads share them).
    @inline(__always)
    func multiply(
        rows: UnsafeMutablePointer<Int16>, count: Int, output: UnsafeMutablePointer<Int8>, blocks: Range<Int>
    ) {
        let r = UnsafeRawPointer(rows)
        if count == 1 {
            multiplyOneRow(r, output: output, blocks: blocks)
            return
        }
        var block = blocks.lowerBound
        #if arch(x86_64) && canImport(CPureVisionTargetFeatures.AVX2)
            while block + 2 <= blocks.upperBound {
                multiplyTwoBlocks(block, rows: r, count: count, output: output)
                block += 2
            }
        #endif
        while block < blocks.upperBound {
            multiplyBlock(block, rows: r, count: count, output: output)
            block += 1
        }
    }

    /// Weight blocks per task for a run of one output pixel (a fully connected layer) on the Swift integer path, or []
    /// for a single task: runs of whole groups of four blocks (the one-row loop's step), two per thread. Only when
    /// every task gets a group and every thread at least ``minimumOneRowWork`` multiply-adds; below that, handing the
    /// work to another thread costs more than it saves.
    static func oneRowBlockParts(blockCount: Int, depth: Int, threads: Int) -> [Range<Int>] {
        let parts = threads * 2
        guard threads > 1, blockCount / 4 >= parts, blockCount * 8 * depth >= threads * minimumOneRowWork else {
            return []
        }
        return blockRuns(blockCount, parts: parts, step: 4)
    }

    /// `blockCount` blocks cut into `parts` consecutive runs, each starting at a multiple of `step` blocks and as
    /// equal as that allows; the last run takes the blocks left over.
    static func blockRuns(_ blockCount: Int, parts: Int, step: Int) -> [Range<Int>] {
        let steps = blockCount / step
        return (0..<parts).map { part in
            (steps * part / parts * step)..<(part == parts - 1 ? blockCount : steps * (part + 1) / parts * step)
        }
    }

    /// Multiply-adds per thread below which a fully connected layer runs on one thread.
    static let minimumOneRowWork = 1 << 16

    /// The products of a tile's only row (a fully connected layer, or the last pixel of a convolution) with every
    /// weight block, four blocks at a time, requantized into `output`: the 4-row loops would multiply the row four
    /// times. Reads each weight once for one use, so it runs at the speed the packed weights stream in. Only the
    /// weight blocks in `blocks` are multiplied.
    @inline(__always)
    func multiplyOneRow(_ row: UnsafeRawPointer, output: UnsafeMutablePointer<Int8>, blocks: Range<Int>) {
        let blockBytes = paddedDepth &* 16
        var block = blocks.lowerBound
        while block + 4 <= blocks.upperBound {
            var (a0, a1, a2, a3) = (SIMD8<Int32>(), SIMD8<Int32>(), SIMD8<Int32>(), SIMD8<Int32>())
            let w = UnsafeRawPointer(weights + block * paddedDepth * 8)
            var k = 0
            while k < paddedDepth {
                // k < paddedDepth, so these offsets stay within the four packed blocks and the row.
                let x = Self.broadcastPairs(row + k &* 2)
                let offset = k &* 16
                a0 &+= Self.multiplyAdd(x, w.loadUnaligned(fromByteOffset: offset, as: SIMD16<Int16>.self))
                a1 &+= Self.multiplyAdd(
                    x, w.loadUnaligned(fromByteOffset: offset &+ blockBytes, as: SIMD16<Int16>.self))
                a2 &+= Self.multiplyAdd(
                    x, w.loadUnaligned(fromByteOffset: offset &+ 2 &* blockBytes, as: SIMD16<Int16>.self))
                a3 &+= Self.multiplyAdd(
                    x, w.loadUnaligned(fromByteOffset: offset &+ 3 &* blockBytes, as: SIMD16<Int16>.self))
                k &+= 2
            }
            store(block: block, sums: (a0, a0, a0, a0), count: 1, output: output)
            store(block: block + 1, sums: (a1, a1, a1, a1), count: 1, output: output)
            store(block: block + 2, sums: (a2, a2, a2, a2), count: 1, output: output)
            store(block: block + 3, sums: (a3, a3, a3, a3), count: 1, output: output)
            block += 4
        }
        while block < blocks.upperBound {
            var sum = SIMD8<Int32>()
            let w = UnsafeRawPointer(weights + block * paddedDepth * 8)
            var k = 0
            while k < paddedDepth {
                sum &+= Self.multiplyAdd(
                    Self.broadcastPairs(row + k &* 2), w.loadUnaligned(fromByteOffset: k &* 16, as: SIMD16<Int16>.self))
                k &+= 2
            }
            store(block: block, sums: (sum, sum, sum, sum), count: 1, output: output)
            block += 1
        }
    }

    /// The products of the 4 gathered rows with weight block `block`, requantized into `output`.
    @inline(__always)
    func multiplyBlock(_ block: Int, rows r: UnsafeRawPointer, count: Int, output: UnsafeMutablePointer<Int8>) {
        let stride = paddedDepth * 2
        var (a0, a1, a2, a3) = (SIMD8<Int32>(), SIMD8<Int32>(), SIMD8<Int32>(), SIMD8<Int32>())
        let w = UnsafeRawPointer(weights + block * paddedDepth * 8)
        var k = 0
        while k < paddedDepth {
            // k < paddedDepth, so these offsets stay within the packed block and the gathered rows.
            let w0 = w.loadUnaligned(fromByteOffset: k &* 16, as: SIMD16<Int16>.self)
            let x = r + k &* 2
            a0 &+= Self.multiplyAdd(Self.broadcastPairs(x), w0)
            a1 &+= Self.multiplyAdd(Self.broadcastPairs(x + stride), w0)
            a2 &+= Self.multiplyAdd(Self.broadcastPairs(x + 2 * stride), w0)
            a3 &+= Self.multiplyAdd(Self.broadcastPairs(x + 3 * stride), w0)
            k &+= 2
        }
        store(block: block, sums: (a0, a1, a2, a3), count: count, output: output)
    }

    /// Requantizes the first `count` of a block's 4 row sums into `output`. Each row's sums are the block's even
    /// channels (0, 2, 4, 6) in the low half and its odd ones in the high half, as the packed weights give them.
    @inline(__always)
    func store(
        block: Int, sums: (SIMD8<Int32>, SIMD8<Int32>, SIMD8<Int32>, SIMD8<Int32>), count: Int,
        output: UnsafeMutablePointer<Int8>
    ) {
        let outputs = geometry.outputChannels
        let channels = min(8, outputs - block * 8)
        let base = block * 8
        if lanes.isUsable {
            let lanes = self.lanes
            let constants = lanes.constants(block: block)
            let bias = SIMD8(lowHalf: biasLanes[2 * block], highHalf: biasLanes[2 * block + 1])
            for p in 0..<count {
                let sum = p == 0 ? sums.0 : p == 1 ? sums.1 : p == 2 ? sums.2 : sums.3
                let value = lanes.apply(sum &+ bias, constants)
                let (even, odd) = (value.lowHalf, value.highHalf)
                let out = output + p * outputs + base
                if channels == 8 {
                    RequantizationLanes.storeBlock(even: even, odd: odd, flip: flip, to: out)
                    continue
                }
                for j in 0..<4 {
                    if 2 * j < channels { out[2 * j] = Int8(bitPattern: UInt8(truncatingIfNeeded: even[j]) ^ flip) }
                    if 2 * j + 1 < channels {
                        out[2 * j + 1] = Int8(bitPattern: UInt8(truncatingIfNeeded: odd[j]) ^ flip)
                    }
                }
            }
            return
        }
        // Lane j of the block: even lanes in the low half of each row's sums, odd lanes in the high half; spilled
        // once, read as scalars.
        var spilled = sums
        withUnsafeBytes(of: &spilled) { raw in
            let lanes = raw.baseAddress!.assumingMemoryBound(to: Int32.self)
            for lane in 0..<channels {
                let m = channelMultipliers[base + lane]
                let bias = biasTerms[base + lane]
                let slot = (lane & 1) * 4 + (lane >> 1)
                for p in 0..<count {
                    let scaled = m.apply(lanes[p * 8 + slot] &+ bias, rounding: rounding) &+ outputZeroPoint
                    output[p * outputs + base + lane] = Int8(
                        bitPattern: UInt8(truncatingIfNeeded: range.clamp(scaled)) ^ flip)
                }
            }
        }
    }

    /// The 8 bytes at `source`, each XORed with the high byte of `flips` lanes, as sign-extended int16.
    @inline(__always)
    static func widen(_ source: UnsafeRawPointer, flips: SIMD8<Int16>) -> SIMD8<Int16> {
        let bytes = source.loadUnaligned(as: UInt64.self)
        #if arch(x86_64)
            // Interleaving zero bytes below the input bytes puts each byte in the high half of an int16 lane.
            let high = _mm_unpacklo_epi8(
                _mm_setzero_si128(), __m128i(Int64(bitPattern: bytes), 0))
            return (unsafeBitCast(high, to: SIMD8<Int16>.self) ^ flips) &>> 8
        #else
            var high = SIMD8<Int16>()
            for j in 0..<8 { high[j] = Int16(truncatingIfNeeded: bytes >> (8 * UInt64(j))) << 8 }
            return (high ^ flips) &>> 8
        #endif
    }

    /// The int16 pair at `x` (`x[0]`, `x[1]`) repeated across all 16 lanes.
    @inline(__always)
    static func broadcastPairs(_ x: UnsafeRawPointer) -> SIMD16<Int16> {
        unsafeBitCast(SIMD8<Int32>(repeating: x.loadUnaligned(as: Int32.self)), to: SIMD16<Int16>.self)
    }

    /// Lane j of the result: `a[2j] · b[2j] + a[2j + 1] · b[2j + 1]` in int32 (SSE2 `pmaddwd`; exact unless all four
    /// factors are −32768, where the sum wraps to −2³¹).
    @inline(__always)
    package static func multiplyAdd(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> SIMD4<Int32> {
        #if arch(x86_64)
            unsafeBitCast(
                _mm_madd_epi16(unsafeBitCast(a, to: __m128i.self), unsafeBitCast(b, to: __m128i.self)),
                to: SIMD4<Int32>.self)
        #else
            portableMultiplyAdd(a, b)
        #endif
    }

    /// ``multiplyAdd(_:_:)`` on 16 lanes: one AVX2 `vpmaddwd` where the target has AVX2, else one 8-lane multiply-add
    /// per half (SSE2 `pmaddwd`, or NEON). The low half of the result comes from the low halves of `a` and `b`.
    @inline(__always)
    package static func multiplyAdd(_ a: SIMD16<Int16>, _ b: SIMD16<Int16>) -> SIMD8<Int32> {
        #if arch(x86_64) && canImport(CPureVisionTargetFeatures.AVX2)
            unsafeBitCast(
                _mm256_madd_epi16(unsafeBitCast(a, to: __m256i.self), unsafeBitCast(b, to: __m256i.self)),
                to: SIMD8<Int32>.self)
        #else
            SIMD8(lowHalf: multiplyAdd(a.lowHalf, b.lowHalf), highHalf: multiplyAdd(a.highHalf, b.highHalf))
        #endif
    }

    /// ``multiplyAdd(_:_:)`` of the 16 int16 values at `x` and `b`: one 256-bit load where the target has AVX2, else
    /// one 8-lane load per half (SSE2 and NEON registers hold 8 lanes; a 16-lane load would be split after the fact).
    @inline(__always)
    package static func multiplyAdd(loading x: UnsafeRawPointer, _ b: SIMD16<Int16>) -> SIMD8<Int32> {
        #if arch(x86_64) && canImport(CPureVisionTargetFeatures.AVX2)
            multiplyAdd(x.loadUnaligned(as: SIMD16<Int16>.self), b)
        #else
            SIMD8(
                lowHalf: multiplyAdd(x.loadUnaligned(as: SIMD8<Int16>.self), b.lowHalf),
                highHalf: multiplyAdd(x.loadUnaligned(fromByteOffset: 16, as: SIMD8<Int16>.self), b.highHalf))
        #endif
    }

    /// ``multiplyAdd(loading:_:)`` with `b` read from `w` as well, each half by itself where the target lacks AVX2.
    @inline(__always)
    package static func multiplyAdd(loading x: UnsafeRawPointer, weights w: UnsafeRawPointer) -> SIMD8<Int32> {
        #if arch(x86_64) && canImport(CPureVisionTargetFeatures.AVX2)
            multiplyAdd(x.loadUnaligned(as: SIMD16<Int16>.self), w.loadUnaligned(as: SIMD16<Int16>.self))
        #else
            SIMD8(
                lowHalf: multiplyAdd(x.loadUnaligned(as: SIMD8<Int16>.self), w.loadUnaligned(as: SIMD8<Int16>.self)),
                highHalf: multiplyAdd(
                    x.loadUnaligned(fromByteOffset: 16, as: SIMD8<Int16>.self),
                    w.loadUnaligned(fromByteOffset: 16, as: SIMD8<Int16>.self)))
        #endif
    }

    /// ``multiplyAdd(_:_:)`` without SSE2, what arm64 runs: widening products, then pairwise sums (NEON: `smull` /
    /// `smull2`, then `addp`). The products are exact; the sum wraps in the one case `pmaddwd`'s does. Compiled
    /// everywhere, so that its tests run on x86 too.
    @inline(__always)
    package static func portableMultiplyAdd(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> SIMD4<Int32> {
        let products: SIMD8<Int32> = SIMD8<Int32>(truncatingIfNeeded: a) &* SIMD8<Int32>(truncatingIfNeeded: b)
        return products.evenHalf &+ products.oddHalf
    }
}
