#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

/// Int8 DEPTHWISE_CONV_2D on NHWC activations with `[1, KH, KW, Cout]` int8 weights, per-channel multipliers and
/// int32 bias, requantized like TFLite's optimized depthwise kernel (`RequantizationRounding.channelBlocksOf8` by default).
///
/// Taps outside the input are skipped (TFLite's rule; equivalent to padding with the input zero point). With depth
/// multiplier 1, the input rows an output row reads are first staged in scratch as int16 `x − zeroPoint`, with zeros
/// for the padding, so every output pixel runs all taps, and in pairs of kernel rows: each channel's value in kernel
/// row 2p next to its value in row 2p + 1 (see ``StagedLayout``). One `pmaddwd` of 8 staged int16 with the matching
/// weight pairs then gives 4 channels' exact int32 sums of two taps (uint8 too: products of two ±255 values), in
/// channel order; channels go 8 at a time in Swift, 16 in the generated code, from the same staging and weights. A
/// thread keeps the row pairs it staged and reuses them for its next output rows, which need all but one of them
/// again (stride 1 or 2), so each row pair is staged about once per run.
/// The last `channels % 8` channels, other depth multipliers and multipliers with left shifts run scalar.
public final class QuantizedDepthwiseConv2DKernel: ScratchSlotTaskKernel, @unchecked Sendable {
    /// The convolution's shapes.
    public let geometry: DepthwiseConv2DGeometry
    let weights: UnsafeMutablePointer<Int16>
    let bias: UnsafeMutablePointer<Int32>
    let multipliers: [QuantizedMultiplier]
    /// Threads the scratch has a staging slot for (the `threadCount` the kernel was made for).
    package let slotCount: Int
    /// Output rows a run is cut into: several per thread, so that a thread that is slow to wake or descheduled
    /// leaves its rows to the others instead of holding up the operator (see ``taskCount(rows:threads:)``).
    package let taskCount: Int

    /// Tasks for `rows` output rows on `threads` threads: 1 for one thread; else a whole number of tasks per thread
    /// (up to ``ThreadPool/chunksPerThread``) of at least ``minimumRowsPerTask`` rows, but at least one per thread.
    /// Each task stages the row pair above its first row again, so short tasks stage much more than one thread
    /// would: a 14-row layer cut in 8 tasks stages 1.6× the pairs.
    package static func taskCount(rows: Int, threads: Int) -> Int {
        guard threads > 1 else { return 1 }
        let perThread = max(1, min(ThreadPool.chunksPerThread, rows / (threads * minimumRowsPerTask)))
        return min(rows, threads * perThread)
    }

    /// Output rows a task should have at least when there are enough (see ``taskCount(rows:threads:)``).
    package static let minimumRowsPerTask = 6
    let lanes: RequantizationLanes
    /// `bias` in the lane groups of `lanes` (4 channels each, in order).
    let biasLanes: UnsafeMutablePointer<SIMD4<Int32>>
    let inputZeroPoint: Int32
    let outputZeroPoint: Int32
    let range: QuantizedRange
    let rounding: RequantizationRounding
    /// uint8 activations: read as unsigned, scalar path only (generated code handles them too).
    let isUnsigned: Bool
    /// The generated row kernel, when the kernel was asked for it and the CPU, geometry and multipliers allow it.
    let generated: QuantizedDepthwiseCode?
    /// Generated staging of row pairs, with AVX-512 (else the Swift loop stages them).
    let generatedStaging: QuantizedDepthwiseStagingCode?
    /// Channels computed 8 at a time from staged rows (by generated code or the Swift loop): `Cout / 8 · 8` with
    /// depth multiplier 1 and vector requantization, else 0 (all channels scalar).
    let stagedChannels: Int
    /// The staging's shape (see ``stagedLayout(_:)``).
    let staging: StagedLayout
    /// Weight pairs for the first `Cout / 8 · 8` channels (depth multiplier 1), `[block][pair][kx][half]`: block of 8
    /// channels, row pair, kernel column, channels 0–3 or 4–7 of the block; int16 lanes 2j and 2j + 1 hold channel
    /// `4 · half + j`'s weights in kernel rows 2 · pair and 2 · pair + 1 (0 past the last row). Read by the Swift loop
    /// and the generated code.
    let pairedWeights: UnsafeMutablePointer<SIMD8<Int16>>
    /// Byte offset of each kernel column's staged value from the output pixel's first one.
    let columnOffsets: UnsafeMutablePointer<Int>

    /// Whether runs use generated machine code (else the Swift SIMD loops).
    public var usesGeneratedCode: Bool { generated != nil }

    /// The code runs use: generated, or the Swift integer loops.
    public var kernelFamily: KernelFamily { usesGeneratedCode ? .generated : .swiftSIMD }

    /// The generated code's instructions, or nil without generated code.
    public var generatedInstructions: GeneratedInstructionSet? { generated?.instructions }

    /// Widens `filter` (`KH · KW · Cout` int8 values) and copies `bias` (Cout int32 values, or nil for zeros).
    public convenience init(
        geometry: DepthwiseConv2DGeometry, filter: UnsafePointer<Int8>, bias: UnsafePointer<Int32>?,
        inputZeroPoint: Int32, outputZeroPoint: Int32, multipliers: [QuantizedMultiplier], range: QuantizedRange,
        rounding: RequantizationRounding = .channelBlocksOf8, threadCount: Int = 1, generatesMachineCode: Bool = false,
        instructions: GeneratedInstructionSet = .best
    ) {
        self.init(
            geometry: geometry, weight: { Int32(filter[$0]) }, bias: bias, inputZeroPoint: inputZeroPoint,
            outputZeroPoint: outputZeroPoint, multipliers: multipliers, range: range, unsigned: false,
            rounding: rounding, threadCount: threadCount, generatesMachineCode: generatesMachineCode,
            instructions: instructions)
    }

    /// The general form: `weight(i)` is the i-th weight minus its zero point (within ±255); with `unsigned` the
    /// activations are uint8 (TFLite's uint8 scheme; zero points and `range` on the uint8 scale), computed on the
    /// scalar path (a product of two ±255 values does not fit the int16 lanes). With `generatesMachineCode`, on a CPU
    /// with AVX2, depth multiplier 1 and no multiplier needing a left shift, rows run as generated code
    /// (``QuantizedDepthwiseCode``, int32 products, so uint8 too) for all but the last `channels % 8` channels;
    /// `instructions` picks AVX2 or AVX-512 VNNI (the default where the CPU has it).
    public init(
        geometry: DepthwiseConv2DGeometry, weight: (Int) -> Int32, bias: UnsafePointer<Int32>?,
        inputZeroPoint: Int32, outputZeroPoint: Int32, multipliers: [QuantizedMultiplier], range: QuantizedRange,
        unsigned: Bool, rounding: RequantizationRounding = .channelBlocksOf8, threadCount: Int = 1,
        generatesMachineCode: Bool = false, instructions: GeneratedInstructionSet = .best
    ) {
        isUnsigned = unsigned
        precondition(geometry.isValid, "invalid depthwise geometry")
        let conv = geometry.convolution
        let outputs = conv.outputChannels
        precondition(multipliers.count == 1 || multipliers.count == outputs, "one multiplier per channel")
        precondition(
            rounding != .xnnpack || multipliers.allSatisfy { $0.floatScale != 0 || $0.multiplier == 0 },
            "XNNPACK's rounding needs each multiplier's floatScale")
        self.geometry = geometry
        let count = conv.window.kernelHeight * conv.window.kernelWidth * outputs
        weights = .allocate(capacity: count)
        for i in 0..<count { (weights + i).initialize(to: Int16(clamping: weight(i))) }
        self.bias = .allocate(capacity: outputs)
        for o in 0..<outputs { (self.bias + o).initialize(to: bias?[o] ?? 0) }
        self.multipliers = multipliers.count == 1 ? Array(repeating: multipliers[0], count: outputs) : multipliers
        slotCount = max(1, threadCount)
        taskCount = Self.taskCount(rows: conv.batch * conv.outputHeight, threads: slotCount)
        let perChannel = self.multipliers
        // uint8 is computed on the int8 scale: zero point and bounds − 128, the sign bit flipped on store.
        let shift: Int32 = unsigned ? 128 : 0
        let shiftedRange = QuantizedRange(lower: range.lower - shift, upper: range.upper - shift)
        lanes = RequantizationLanes(
            multipliers: { perChannel[$0] }, rounding: { rounding.forChannel($0, of: outputs) },
            channels: outputs / 8 * 8, zeroPoint: outputZeroPoint - shift, range: shiftedRange, layout: .inOrder)
        let groups = (outputs + 7) / 8 * 2
        biasLanes = .allocate(capacity: groups)
        for g in 0..<groups {
            var v = SIMD4<Int32>()
            for j in 0..<4 where 4 * g + j < outputs { v[j] = self.bias[4 * g + j] }
            (biasLanes + g).initialize(to: v)
        }
        self.inputZeroPoint = inputZeroPoint
        self.outputZeroPoint = outputZeroPoint
        self.range = range
        self.rounding = rounding
        let layout = Self.stagedLayout(conv)
        staging = layout
        let (kh, kw) = (conv.window.kernelHeight, conv.window.kernelWidth)
        stagedChannels = geometry.depthMultiplier == 1 && lanes.isUsable ? outputs / 8 * 8 : 0
        let pairedChannels = geometry.depthMultiplier == 1 ? outputs / 8 * 8 : 0
        let vectors = max(1, pairedChannels / 8 * layout.pairs * kw * 2)
        pairedWeights = .allocate(capacity: vectors)
        pairedWeights.initialize(repeating: SIMD8(), count: vectors)
        for c in 0..<pairedChannels {
            for ky in 0..<kh {
                for kx in 0..<kw {
                    let vector = (((c / 8) * layout.pairs + ky / 2) * kw + kx) * 2 + (c % 8) / 4
                    pairedWeights[vector][2 * (c % 4) + ky % 2] = weights[(ky * kw + kx) * outputs + c]
                }
            }
        }
        columnOffsets = .allocate(capacity: kw)
        for kx in 0..<kw { columnOffsets[kx] = kx * conv.window.dilationWidth * outputs * 4 }
        if generatesMachineCode, HostCPU.supportsGeneratedAVX2, pairedChannels > 0 {
            let (biases, perChannel) = (self.bias, self.multipliers)
            generated = QuantizedDepthwiseCode(
                geometry: geometry, pairedWeights: UnsafeRawPointer(pairedWeights), bias: { biases[$0] },
                multipliers: { perChannel[$0] }, rounding: rounding.forChannel(0, of: outputs),
                zeroPoint: outputZeroPoint - shift, range: shiftedRange, flip: unsigned ? 0x80 : 0,
                instructions: instructions)
        } else {
            generated = nil
        }
        generatedStaging =
            generatesMachineCode && instructions == .avx512 && stagedChannels > 0
            ? QuantizedDepthwiseStagingCode(zeroPoint: Int16(clamping: inputZeroPoint), unsigned: unsigned) : nil
    }

    deinit {
        weights.deallocate()
        bias.deallocate()
        lanes.deallocate()
        biasLanes.deallocate()
        pairedWeights.deallocate()
        columnOffsets.deallocate()
    }

    /// The staged input rows. An output row reads `pairs` = ⌈kernelHeight / 2⌉ staged row pairs, pair `p` holding the
    /// input rows of kernel rows 2p and 2p + 1: input rows `r` and `r + dilationHeight`, `r = oy · strideHeight −
    /// paddingTop + 2p · dilationHeight` (for an odd kernel height the last pair's second row meets zero weights).
    /// A staged row pair has `width` = `(outputWidth − 1) · strideWidth + (kernelWidth − 1) · dilationWidth + 1`
    /// pixels from input column `−paddingLeft`, each `Cout` pairs of int16: the channel's `x − zeroPoint` in the first
    /// row, then in the second (zeros for padding), and 64 bytes of slack; `rowBytes` apart in a thread's `slots`
    /// staged row pairs.
    struct StagedLayout {
        var width: Int
        var pairs: Int
        var rowBytes: Int
        /// Row pairs a thread keeps: twice what one output row reads, so those the next row reads again survive.
        var slots: Int { 2 * pairs }
    }

    /// The staged layout of `g` (see ``StagedLayout``).
    static func stagedLayout(_ g: Conv2DGeometry) -> StagedLayout {
        let width = (g.outputWidth - 1) * g.window.strideWidth + (g.window.kernelWidth - 1) * g.window.dilationWidth + 1
        return StagedLayout(
            width: width, pairs: (g.window.kernelHeight + 1) / 2, rowBytes: width * g.outputChannels * 4 + 64)
    }

    /// Bytes of scratch a run needs: the staged row pairs of each thread.
    public var scratchBytes: Int {
        generated != nil || stagedChannels > 0 ? slotCount * staging.slots * staging.rowBytes : 0
    }

    /// Task `task` of a run (``ScratchSlotTaskKernel/run(input:output:scratch:pool:)``): its share of the output
    /// rows, staged in scratch slot `thread`.
    package func runTask(
        task: Int, thread: Int, _ input: UnsafePointer<Int8>, _ output: UnsafeMutablePointer<Int8>,
        _ scratch: UnsafeMutablePointer<Int16>
    ) {
        let g = geometry.convolution
        let rows = g.batch * g.outputHeight
        let rowRange = (rows * task / taskCount)..<(rows * (task + 1) / taskCount)
        guard generated != nil || stagedChannels > 0 else {
            for row in rowRange { scalarRow(row, input: input, output: output) }
            return
        }
        let slots = UnsafeMutableRawPointer(scratch) + thread * staging.slots * staging.rowBytes
        // Which row pair each slot holds (its key, see `stagedRow`); the scratch may hold another operator's data.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: staging.slots) { keys in
            keys.initialize(repeating: Int.min)
            withUnsafeTemporaryAllocation(of: UnsafeRawPointer.self, capacity: staging.pairs) { pairRows in
                for row in rowRange {
                    stagedRow(
                        row, input: input, output: output, slots: slots, keys: keys.baseAddress!,
                        pairRows: pairRows.baseAddress!)
                }
            }
        }
    }

    /// One output row from staged row pairs: those it reads found among the thread's `slots` (by key) or staged into
    /// the slot with the oldest pair this row does not read, then the generated code or the Swift loop for the first
    /// channels, then the last `channels % 8` in scalar Swift. `pairRows` receives the row's `pairs` staged rows.
    func stagedRow(
        _ row: Int, input: UnsafePointer<Int8>, output: UnsafeMutablePointer<Int8>, slots: UnsafeMutableRawPointer,
        keys: UnsafeMutablePointer<Int>, pairRows: UnsafeMutablePointer<UnsafeRawPointer>
    ) {
        let g = geometry.convolution
        let b = row / g.outputHeight
        let oy = row % g.outputHeight
        let layout = staging
        // A row pair's key: its image and first input row; increasing along an image's rows.
        let firstKey = b << 32 + (oy * g.window.strideHeight - g.window.paddingTop)
        let keyStep = 2 * g.window.dilationHeight
        func readHere(_ key: Int) -> Bool {
            key >= firstKey && (key - firstKey) % keyStep == 0 && (key - firstKey) / keyStep < layout.pairs
        }
        for pair in 0..<layout.pairs {
            let key = firstKey + pair * keyStep
            var slot = 0
            while slot < layout.slots && keys[slot] != key { slot += 1 }
            if slot == layout.slots {
                // At most `pairs` slots hold pairs this row reads, so an evictable slot exists.
                var oldest = Int.max
                for s in 0..<layout.slots where !readHere(keys[s]) && keys[s] < oldest {
                    (slot, oldest) = (s, keys[s])
                }
                precondition(slot < layout.slots, "depthwise staging: no slot to reuse")
                keys[slot] = key
                stagePair(image: b, firstRow: key - b << 32, input: input, into: slots + slot * layout.rowBytes)
            }
            pairRows[pair] = UnsafeRawPointer(slots + slot * layout.rowBytes)
        }
        let rowOutput = output + row * g.outputWidth * g.outputChannels
        let done: Int
        if let code = generated {
            code.run(pairRows: pairRows, output: UnsafeMutableRawPointer(rowOutput))
            done = code.channels
        } else {
            pairedRow(pairRows: pairRows, output: rowOutput)
            done = stagedChannels
        }
        guard done < g.outputChannels else { return }
        let rowY0 = oy * g.window.strideHeight - g.window.paddingTop
        let tapRows = g.tapRows(from: rowY0)
        for ox in 0..<g.outputWidth {
            let xStart = ox * g.window.strideWidth - g.window.paddingLeft
            let tapColumns = g.tapColumns(from: xStart)
            for channel in done..<g.outputChannels {
                var acc = bias[channel]
                for ky in tapRows {
                    let iy = rowY0 + ky * g.window.dilationHeight
                    for kx in tapColumns {
                        let ix = xStart + kx * g.window.dilationWidth
                        let byte = input[((b * g.inputHeight + iy) * g.inputWidth + ix) * g.inputChannels + channel]
                        let x = isUnsigned ? Int32(UInt8(bitPattern: byte)) : Int32(byte)
                        acc &+=
                            (x &- inputZeroPoint)
                            &* Int32(weights[(ky * g.window.kernelWidth + kx) * g.outputChannels + channel])
                    }
                }
                let scaled =
                    multipliers[channel].apply(acc, rounding: rounding.forChannel(channel, of: g.outputChannels))
                    &+ outputZeroPoint
                rowOutput[ox * g.outputChannels + channel] = Int8(truncatingIfNeeded: range.clamp(scaled))
            }
        }
    }

    /// Stages input rows `firstRow` and `firstRow + dilationHeight` of image `image` as one row pair at `target` (see
    /// ``StagedLayout``).
    private func stagePair(
        image b: Int, firstRow: Int, input: UnsafePointer<Int8>, into target: UnsafeMutableRawPointer
    ) {
        let g = geometry.convolution
        let c = g.inputChannels
        let x0 = -g.window.paddingLeft
        let width = staging.width
        let firstValid = max(0, -x0)
        let endValid = max(firstValid, min(width, g.inputWidth - x0))
        let out = target.assumingMemoryBound(to: Int16.self)
        // An input row from its first staged pixel inside the input, or nil for a row outside.
        func source(_ iy: Int) -> UnsafePointer<Int8>? {
            guard iy >= 0, iy < g.inputHeight, endValid > firstValid else { return nil }
            return input + ((b * g.inputHeight + iy) * g.inputWidth + x0 + firstValid) * c
        }
        out.update(repeating: 0, count: firstValid * c * 2)
        interleave(
            source(firstRow), source(firstRow + g.window.dilationHeight), into: out + firstValid * c * 2,
            count: (endValid - firstValid) * c)
        (out + endValid * c * 2).update(repeating: 0, count: (width - endValid) * c * 2)
    }

    /// Writes `count` int16 pairs at `target`: pair i is (`first[i] − zeroPoint`, `second[i] − zeroPoint`), a nil row
    /// giving zeros.
    @inline(__always)
    private func interleave(
        _ first: UnsafePointer<Int8>?, _ second: UnsafePointer<Int8>?, into target: UnsafeMutablePointer<Int16>,
        count: Int
    ) {
        let zero = Int16(clamping: inputZeroPoint)
        @inline(__always) func value(_ row: UnsafePointer<Int8>?, _ i: Int) -> Int16 {
            guard let row else { return 0 }
            return (isUnsigned ? Int16(UInt8(bitPattern: row[i])) : Int16(row[i])) &- zero
        }
        var i = 0
        let steps = count / QuantizedDepthwiseStagingCode.valuesPerStep
        if let generatedStaging, let first, let second, steps > 0 {
            generatedStaging.run(first: first, second: second, target: UnsafeMutableRawPointer(target), steps: steps)
            i = steps * QuantizedDepthwiseStagingCode.valuesPerStep
        }
        #if arch(x86_64)
            // uint8 is widened with its sign bit flipped (x − 128), so the offset subtracted is the zero point − 128.
            let flips = SIMD8<Int16>(repeating: isUnsigned ? Int16(bitPattern: 0x8000) : 0)
            let offset = SIMD8<Int16>(repeating: zero &- (isUnsigned ? 128 : 0))
            @inline(__always) func widened(_ row: UnsafePointer<Int8>?, _ i: Int) -> __m128i {
                guard let row else { return _mm_setzero_si128() }
                return unsafeBitCast(QuantizedConv2DKernel.widen(row + i, flips: flips) &- offset, to: __m128i.self)
            }
            let out = UnsafeMutableRawPointer(target)
            while i + 8 <= count {
                let (a, b) = (widened(first, i), widened(second, i))
                out.storeBytes(of: _mm_unpacklo_epi16(a, b), toByteOffset: i &* 4, as: __m128i.self)
                out.storeBytes(of: _mm_unpackhi_epi16(a, b), toByteOffset: i &* 4 &+ 16, as: __m128i.self)
                i &+= 8
            }
        #endif
        while i < count {
            target[2 * i] = value(first, i)
            target[2 * i + 1] = value(second, i)
            i += 1
        }
    }

    /// The first ``stagedChannels`` channels of every pixel of one output row from the staged rows, 8 channels at a
    /// time (see the type's description).
    @inline(__always)
    func pairedRow(pairRows: UnsafePointer<UnsafeRawPointer>, output: UnsafeMutablePointer<Int8>) {
        // The common kernels with their tap counts as constants, so that the tap loops unroll.
        switch (staging.pairs, geometry.convolution.window.kernelWidth) {
        case (2, 3): pairedRow3x3(pairRows: pairRows, output: output)
        case (3, 5): pairedRow(pairRows: pairRows, output: output, pairs: 3, kernelWidth: 5)
        case (let pairs, let kernelWidth):
            pairedRow(pairRows: pairRows, output: output, pairs: pairs, kernelWidth: kernelWidth)
        }
    }

    /// ``pairedRow(pairRows:output:)`` for `pairs` staged row pairs of `kernelWidth` taps.
    @inline(__always)
    private func pairedRow(
        pairRows: UnsafePointer<UnsafeRawPointer>, output: UnsafeMutablePointer<Int8>, pairs: Int, kernelWidth kw: Int
    ) {
        let g = geometry.convolution
        let cout = g.outputChannels
        let pixelStride = g.window.strideWidth &* cout &* 4
        let flip: UInt8 = isUnsigned ? 0x80 : 0
        for block in 0..<stagedChannels / 8 {
            let weights = pairedWeights + block &* pairs &* kw &* 2
            let (biasLow, biasHigh) = (biasLanes[2 &* block], biasLanes[2 &* block &+ 1])
            var offset = block &* 32
            var out = output + block &* 8
            for _ in 0..<g.outputWidth {
                var w = weights
                // A tap's 8 channels: the low 4's pairs, then the high 4's, in pixels and in weights alike. Staged rows
                // hold every pixel a tap reads (padding included), so the offsets stay inside.
                #if arch(x86_64) && canImport(CPureVisionTargetFeatures.AVX2)
                    // One 256-bit multiply-add per tap.
                    var sum = SIMD8(lowHalf: biasLow, highHalf: biasHigh)
                    for pair in 0..<pairs {
                        let pixel = pairRows[pair] + offset
                        for kx in 0..<kw {
                            sum &+= QuantizedConv2DKernel.multiplyAdd(
                                loading: pixel + columnOffsets[kx], weights: UnsafeRawPointer(w))
                            w += 2
                        }
                    }
                    let (low, high) = (sum.lowHalf, sum.highHalf)
                #else
                    // Two 4-channel sums: an 8-lane one compiles to spills in SSE2's sixteen registers.
                    var (low, high) = (biasLow, biasHigh)
                    for pair in 0..<pairs {
                        let pixel = pairRows[pair] + offset
                        for kx in 0..<kw {
                            let x = pixel + columnOffsets[kx]
                            low &+= QuantizedConv2DKernel.multiplyAdd(x.loadUnaligned(as: SIMD8<Int16>.self), w[0])
                            high &+= QuantizedConv2DKernel.multiplyAdd(
                                x.loadUnaligned(fromByteOffset: 16, as: SIMD8<Int16>.self), w[1])
                            w += 2
                        }
                    }
                #endif
                RequantizationLanes.storeInOrder(
                    lanes.apply(low, group: 2 &* block), lanes.apply(high, group: 2 &* block &+ 1), flip: flip,
                    to: out)
                offset &+= pixelStride
                out += cout
            }
        }
    }

    /// ``pairedRow(pairRows:output:)`` for a 3 × 3 kernel (two row pairs, the second with zero weights in its second
    /// row): a block's 12 weight vectors are loaded once and held while the row's pixels go by.
    private func pairedRow3x3(pairRows: UnsafePointer<UnsafeRawPointer>, output: UnsafeMutablePointer<Int8>) {
        let g = geometry.convolution
        let cout = g.outputChannels
        let pixelStride = g.window.strideWidth &* cout &* 4
        let (upper, lower) = (pairRows[0], pairRows[1])
        let (left, middle, right) = (columnOffsets[0], columnOffsets[1], columnOffsets[2])
        let flip: UInt8 = isUnsigned ? 0x80 : 0
        // A local copy: the stores through `output` would otherwise make each pixel read the fields again.
        let lanes = self.lanes
        @inline(__always) func tap(_ x: UnsafeRawPointer, _ w: SIMD16<Int16>) -> SIMD8<Int32> {
            QuantizedConv2DKernel.multiplyAdd(loading: x, w)
        }
        for block in 0..<stagedChannels / 8 {
            // [pair][kx]: each tap's weights for the low 4 channels, then for the high 4.
            let w = UnsafeRawPointer(pairedWeights + block &* 12)
            @inline(__always) func weights(_ tap: Int) -> SIMD16<Int16> {
                w.loadUnaligned(fromByteOffset: tap &* 32, as: SIMD16<Int16>.self)
            }
            let (u0, u1, u2) = (weights(0), weights(1), weights(2))
            let (l0, l1, l2) = (weights(3), weights(4), weights(5))
            let bias = SIMD8(lowHalf: biasLanes[2 &* block], highHalf: biasLanes[2 &* block &+ 1])
            let constants = lanes.constants(block: block)
            var offset = block &* 32
            var out = output + block &* 8
            for _ in 0..<g.outputWidth {
                // Staged rows hold every pixel a tap reads (padding included), so the offsets stay inside.
                let (a, b) = (upper + offset, lower + offset)
                var sum = bias &+ tap(a + left, u0) &+ tap(a + middle, u1) &+ tap(a + right, u2)
                sum &+= tap(b + left, l0) &+ tap(b + middle, l1) &+ tap(b + right, l2)
                RequantizationLanes.storeInOrder(lanes.apply(sum, constants), flip: flip, to: out)
                offset &+= pixelStride
                out += cout
            }
        }
    }

    /// One output row, every channel in scalar Swift (taps outside the input skipped).
    func scalarRow(_ row: Int, input: UnsafePointer<Int8>, output: UnsafeMutablePointer<Int8>) {
        let g = geometry.convolution
        let b = row / g.outputHeight
        let oy = row % g.outputHeight
        let cin = g.inputChannels
        let cout = g.outputChannels
        let rowY0 = oy * g.window.strideHeight - g.window.paddingTop
        let tapRows = g.tapRows(from: rowY0)
        for ox in 0..<g.outputWidth {
            let out = output + ((b * g.outputHeight + oy) * g.outputWidth + ox) * cout
            let x0 = ox * g.window.strideWidth - g.window.paddingLeft
            let tapColumns = g.tapColumns(from: x0)
            for c in 0..<cout {
                let ic = c / geometry.depthMultiplier
                var acc = bias[c]
                for ky in tapRows {
                    let iy = rowY0 + ky * g.window.dilationHeight
                    for kx in tapColumns {
                        let ix = x0 + kx * g.window.dilationWidth
                        let byte = input[((b * g.inputHeight + iy) * g.inputWidth + ix) * cin + ic]
                        let x = isUnsigned ? Int32(UInt8(bitPattern: byte)) : Int32(byte)
                        acc &+= (x &- inputZeroPoint) &* Int32(weights[(ky * g.window.kernelWidth + kx) * cout + c])
                    }
                }
                let scaled = multipliers[c].apply(acc, rounding: rounding.forChannel(c, of: cout)) &+ outputZeroPoint
                out[c] = Int8(truncatingIfNeeded: range.clamp(scaled))
            }
        }
    }
}
