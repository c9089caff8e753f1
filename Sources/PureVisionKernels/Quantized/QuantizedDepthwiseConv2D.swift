/// Int8 DEPTHWISE_CONV_2D on NHWC activations with `[1, KH, KW, Cout]` int8 weights, per-channel multipliers and
/// int32 bias, requantized like TFLite's optimized depthwise kernel (`RequantizationRounding.channelBlocksOf8` by default).
///
/// Taps outside the input are skipped (TFLite's rule; equivalent to padding with the input zero point). With depth
/// multiplier 1, the input rows an output row reads are first staged in scratch as int16 `x − zeroPoint`, with zeros
/// for the padding, so every output pixel runs all taps; channels then go 8 at a time: each tap multiplies the 8
/// staged values with two weight vectors, one holding the even channels' weights in the even int16 lanes (zeros
/// between), the other the odd channels' in the odd lanes, so that SSE2's `pmaddwd` yields the exact int32 products
/// of the even and of the odd channels (uint8 too: products of two ±255 values). The same staging feeds the generated
/// code; the last `channels % 8` channels, other depth multipliers and multipliers with left shifts run scalar.
public final class QuantizedDepthwiseConv2DKernel: @unchecked Sendable {
    /// The convolution's shapes.
    public let geometry: DepthwiseConv2DGeometry
    let weights: UnsafeMutablePointer<Int16>
    let bias: UnsafeMutablePointer<Int32>
    let multipliers: [QuantizedMultiplier]
    /// Threads the scratch has a staging slot for (the `threadCount` the kernel was made for).
    let slotCount: Int
    /// Output rows a run is cut into: several per thread, so that a thread that is slow to wake or descheduled
    /// leaves its rows to the others instead of holding up the operator.
    let taskCount: Int
    let lanes: RequantizationLanes
    /// `bias` in the even / odd lane groups of `lanes`.
    let biasLanes: UnsafeMutablePointer<SIMD4<Int32>>
    let inputZeroPoint: Int32
    let outputZeroPoint: Int32
    let range: QuantizedRange
    let rounding: RequantizationRounding
    /// uint8 activations: read as unsigned, scalar path only (generated code handles them too).
    let isUnsigned: Bool
    /// The generated row kernel, when the kernel was asked for it and the CPU, geometry and multipliers allow it.
    let generated: QuantizedDepthwiseCode?
    /// Channels computed 8 at a time from staged rows (by generated code or the Swift loop): `Cout / 8 · 8` with
    /// depth multiplier 1 and vector requantization, else 0 (all channels scalar).
    let stagedChannels: Int
    /// Staged pixels per row and bytes between staged rows (see ``stagedLayout(_:)``).
    let stagedWidth: Int
    let stagedRowBytes: Int
    /// For the Swift loop: per block of 8 channels and tap, the even and odd weight vectors (`[block][tap][parity]`).
    let pairedWeights: UnsafeMutablePointer<SIMD8<Int16>>
    /// Byte offset of each tap's staged pixel from the output pixel's first tap.
    let tapOffsets: UnsafeMutablePointer<Int>

    /// Whether runs use generated machine code (else the Swift SIMD loops).
    public var usesGeneratedCode: Bool { generated != nil }

    /// Widens `filter` (`KH · KW · Cout` int8 values) and copies `bias` (Cout int32 values, or nil for zeros).
    public convenience init(
        geometry: DepthwiseConv2DGeometry, filter: UnsafePointer<Int8>, bias: UnsafePointer<Int32>?,
        inputZeroPoint: Int32, outputZeroPoint: Int32, multipliers: [QuantizedMultiplier], range: QuantizedRange,
        rounding: RequantizationRounding = .channelBlocksOf8, threadCount: Int = 1, generatesMachineCode: Bool = false
    ) {
        self.init(
            geometry: geometry, weight: { Int32(filter[$0]) }, bias: bias, inputZeroPoint: inputZeroPoint,
            outputZeroPoint: outputZeroPoint, multipliers: multipliers, range: range, unsigned: false,
            rounding: rounding, threadCount: threadCount, generatesMachineCode: generatesMachineCode)
    }

    /// The general form: `weight(i)` is the i-th weight minus its zero point (within ±255); with `unsigned` the
    /// activations are uint8 (TFLite's uint8 scheme; zero points and `range` on the uint8 scale), computed on the
    /// scalar path (a product of two ±255 values does not fit the int16 lanes). With `generatesMachineCode`, on a CPU
    /// with AVX2, depth multiplier 1 and no multiplier needing a left shift, rows run as generated code
    /// (``QuantizedDepthwiseCode``, int32 products, so uint8 too) for all but the last `channels % 8` channels.
    public init(
        geometry: DepthwiseConv2DGeometry, weight: (Int) -> Int32, bias: UnsafePointer<Int32>?,
        inputZeroPoint: Int32, outputZeroPoint: Int32, multipliers: [QuantizedMultiplier], range: QuantizedRange,
        unsigned: Bool, rounding: RequantizationRounding = .channelBlocksOf8, threadCount: Int = 1,
        generatesMachineCode: Bool = false
    ) {
        isUnsigned = unsigned
        precondition(geometry.isValid, "invalid depthwise geometry")
        let outputs = geometry.outputChannels
        precondition(multipliers.count == 1 || multipliers.count == outputs, "one multiplier per channel")
        precondition(
            rounding != .xnnpack || multipliers.allSatisfy { $0.floatScale != 0 || $0.multiplier == 0 },
            "XNNPACK's rounding needs each multiplier's floatScale")
        self.geometry = geometry
        let count = geometry.kernelHeight * geometry.kernelWidth * outputs
        weights = .allocate(capacity: count)
        for i in 0..<count { (weights + i).initialize(to: Int16(clamping: weight(i))) }
        self.bias = .allocate(capacity: outputs)
        for o in 0..<outputs { (self.bias + o).initialize(to: bias?[o] ?? 0) }
        self.multipliers = multipliers.count == 1 ? Array(repeating: multipliers[0], count: outputs) : multipliers
        slotCount = max(1, threadCount)
        let rows = geometry.batch * geometry.outputHeight
        taskCount = ThreadPool.chunkCount(rows, threads: slotCount)
        let perChannel = self.multipliers
        // uint8 is computed on the int8 scale: zero point and bounds − 128, the sign bit flipped on store.
        let shift: Int32 = unsigned ? 128 : 0
        let shiftedRange = QuantizedRange(lower: range.lower - shift, upper: range.upper - shift)
        lanes = RequantizationLanes(
            multipliers: { perChannel[$0] }, rounding: { rounding.forChannel($0, of: outputs) },
            channels: outputs / 8 * 8, zeroPoint: outputZeroPoint - shift, range: shiftedRange)
        let groups = (outputs + 7) / 8 * 2
        biasLanes = .allocate(capacity: groups)
        for g in 0..<groups {
            var v = SIMD4<Int32>()
            for j in 0..<4 {
                let channel = 8 * (g / 2) + 2 * j + g % 2
                if channel < outputs { v[j] = self.bias[channel] }
            }
            (biasLanes + g).initialize(to: v)
        }
        self.inputZeroPoint = inputZeroPoint
        self.outputZeroPoint = outputZeroPoint
        self.range = range
        self.rounding = rounding
        (stagedWidth, stagedRowBytes) = Self.stagedLayout(geometry)
        let taps = geometry.kernelHeight * geometry.kernelWidth
        stagedChannels = geometry.depthMultiplier == 1 && lanes.isUsable ? outputs / 8 * 8 : 0
        let blocks = stagedChannels / 8
        pairedWeights = .allocate(capacity: max(1, blocks * taps * 2))
        pairedWeights.initialize(repeating: SIMD8(), count: max(1, blocks * taps * 2))
        for c in 0..<stagedChannels {
            for t in 0..<taps {
                pairedWeights[((c / 8) * taps + t) * 2 + c % 2][c % 8] = weights[t * outputs + c]
            }
        }
        tapOffsets = .allocate(capacity: taps)
        for ky in 0..<geometry.kernelHeight {
            for kx in 0..<geometry.kernelWidth {
                tapOffsets[ky * geometry.kernelWidth + kx] =
                    ky * stagedRowBytes + kx * geometry.dilationWidth * outputs * 2
            }
        }
        if generatesMachineCode, HostCPU.supportsGeneratedAVX2 {
            let (packed, biases, perChannel) = (weights, self.bias, self.multipliers)
            generated = QuantizedDepthwiseCode(
                geometry: geometry, weight: { tap, c in packed[tap * outputs + c] }, bias: { biases[$0] },
                multipliers: { perChannel[$0] }, rounding: rounding.forChannel(0, of: outputs),
                zeroPoint: outputZeroPoint - shift, range: shiftedRange, flip: unsigned ? 0x80 : 0
            )
        } else {
            generated = nil
        }
    }

    deinit {
        weights.deallocate()
        bias.deallocate()
        lanes.deallocate()
        biasLanes.deallocate()
        pairedWeights.deallocate()
        tapOffsets.deallocate()
    }

    /// The staged rows' layout: `(outputWidth − 1) · strideWidth + (kernelWidth − 1) · dilationWidth + 1` pixels from
    /// input column `−paddingLeft`, `Cout · 2` bytes each, and 32 bytes of slack after each row for vector reads past
    /// its last pixel.
    static func stagedLayout(_ g: DepthwiseConv2DGeometry) -> (width: Int, rowBytes: Int) {
        let width = (g.outputWidth - 1) * g.strideWidth + (g.kernelWidth - 1) * g.dilationWidth + 1
        return (width, width * g.outputChannels * 2 + 32)
    }

    /// Bytes of scratch a run needs: the staged int16 input rows of each thread.
    public var scratchBytes: Int {
        generated != nil || stagedChannels > 0 ? slotCount * geometry.kernelHeight * stagedRowBytes : 0
    }

    /// Runs the convolution: `input` [N, H, W, Cin] int8, `output` [N, OH, OW, Cout] int8, `scratch` at least
    /// `scratchBytes` bytes.
    public func run(
        input: UnsafePointer<Int8>, output: UnsafeMutablePointer<Int8>, scratch: UnsafeMutableRawPointer,
        pool: ThreadPool
    ) {
        pool.fitting(slots: slotCount).parallelTasks(
            taskCount,
            Rows(
                kernel: .passUnretained(self), input: input, output: output,
                scratch: scratch.assumingMemoryBound(to: Int16.self)))
    }

    /// Task `task` of a run: its share of the output rows, staged in scratch slot `thread`.
    private struct Rows: ParallelThreadTaskBody {
        /// Unmanaged: the caller keeps the kernel alive through the run, and retaining it in every task from every
        /// thread made its reference count a cache line the threads fought over.
        let kernel: Unmanaged<QuantizedDepthwiseConv2DKernel>
        let input: UnsafePointer<Int8>
        let output: UnsafeMutablePointer<Int8>
        let scratch: UnsafeMutablePointer<Int16>

        func run(task: Int, thread: Int) {
            kernel._withUnsafeGuaranteedRef { $0.runRows(task: task, thread: thread, input, output, scratch) }
        }
    }

    /// Task `task` of a run (see ``Rows``).
    private func runRows(
        task: Int, thread: Int, _ input: UnsafePointer<Int8>, _ output: UnsafeMutablePointer<Int8>,
        _ scratch: UnsafeMutablePointer<Int16>
    ) {
        let g = geometry
        let rows = g.batch * g.outputHeight
        let rowRange = (rows * task / taskCount)..<(rows * (task + 1) / taskCount)
        guard generated != nil || stagedChannels > 0 else {
            for row in rowRange { scalarRow(row, input: input, output: output) }
            return
        }
        let staged = UnsafeMutableRawPointer(scratch) + thread * g.kernelHeight * stagedRowBytes
        for row in rowRange { stagedRow(row, input: input, output: output, staged: staged) }
    }

    /// One output row from staged rows: the input rows it reads staged as int16 `x − zeroPoint` with zeros for the
    /// padding, then the generated code or the Swift loop for the first channels, then the last `channels % 8` in
    /// scalar Swift.
    func stagedRow(
        _ row: Int, input: UnsafePointer<Int8>, output: UnsafeMutablePointer<Int8>, staged: UnsafeMutableRawPointer
    ) {
        let g = geometry
        let b = row / g.outputHeight
        let oy = row % g.outputHeight
        let c = g.inputChannels
        let x0 = -g.paddingLeft
        let width = stagedWidth
        let zero = Int16(clamping: inputZeroPoint)
        let firstValid = max(0, -x0)
        let endValid = max(firstValid, min(width, g.inputWidth - x0))
        for ky in 0..<g.kernelHeight {
            let target = (staged + ky * stagedRowBytes).assumingMemoryBound(to: Int16.self)
            let iy = oy * g.strideHeight - g.paddingTop + ky * g.dilationHeight
            guard iy >= 0, iy < g.inputHeight, endValid > firstValid else {
                target.update(repeating: 0, count: width * c)
                continue
            }
            target.update(repeating: 0, count: firstValid * c)
            let source = UnsafeRawPointer(input + ((b * g.inputHeight + iy) * g.inputWidth + x0 + firstValid) * c)
                .assumingMemoryBound(to: UInt8.self)
            let out = target + firstValid * c
            let count = (endValid - firstValid) * c
            if isUnsigned {
                for i in 0..<count { out[i] = Int16(source[i]) &- zero }
            } else {
                for i in 0..<count { out[i] = Int16(Int8(bitPattern: source[i])) &- zero }
            }
            (target + endValid * c).update(repeating: 0, count: (width - endValid) * c)
        }
        let rowOutput = output + row * g.outputWidth * g.outputChannels
        let done: Int
        if let code = generated {
            code.run(staged: UnsafeRawPointer(staged), output: UnsafeMutableRawPointer(rowOutput))
            done = code.channels
        } else {
            pairedRow(staged: UnsafeRawPointer(staged), output: rowOutput)
            done = stagedChannels
        }
        guard done < g.outputChannels else { return }
        let rowY0 = oy * g.strideHeight - g.paddingTop
        let tapRows = g.tapRows(from: rowY0)
        for ox in 0..<g.outputWidth {
            let xStart = ox * g.strideWidth - g.paddingLeft
            let tapColumns = g.tapColumns(from: xStart)
            for channel in done..<g.outputChannels {
                var acc = bias[channel]
                for ky in tapRows {
                    let iy = rowY0 + ky * g.dilationHeight
                    for kx in tapColumns {
                        let ix = xStart + kx * g.dilationWidth
                        let byte = input[((b * g.inputHeight + iy) * g.inputWidth + ix) * c + channel]
                        let x = isUnsigned ? Int32(UInt8(bitPattern: byte)) : Int32(byte)
                        acc &+=
                            (x &- inputZeroPoint)
                            &* Int32(weights[(ky * g.kernelWidth + kx) * g.outputChannels + channel])
                    }
                }
                let scaled =
                    multipliers[channel].apply(acc, rounding: rounding.forChannel(channel, of: g.outputChannels))
                    &+ outputZeroPoint
                rowOutput[ox * g.outputChannels + channel] = Int8(truncatingIfNeeded: range.clamp(scaled))
            }
        }
    }

    /// The first ``stagedChannels`` channels of every pixel of one output row from the staged rows, 8 channels at a
    /// time (see the type's description).
    @inline(__always)
    func pairedRow(staged: UnsafeRawPointer, output: UnsafeMutablePointer<Int8>) {
        let g = geometry
        let cout = g.outputChannels
        let taps = g.kernelHeight * g.kernelWidth
        let pixelStride = g.strideWidth * cout * 2
        for ox in 0..<g.outputWidth {
            let pixel = staged + ox * pixelStride
            let out = output + ox * cout
            var block = 0
            while block < stagedChannels / 8 {
                var even = biasLanes[2 * block]
                var odd = biasLanes[2 * block + 1]
                let channels = pixel + block &* 16
                let w = pairedWeights + block &* taps &* 2
                var t = 0
                while t < taps {
                    // Staged rows hold every pixel a tap reads (padding included), so the offsets stay inside them.
                    let x = channels.loadUnaligned(fromByteOffset: tapOffsets[t], as: SIMD8<Int16>.self)
                    even &+= QuantizedConv2DKernel.multiplyAdd(x, w[2 &* t])
                    odd &+= QuantizedConv2DKernel.multiplyAdd(x, w[2 &* t &+ 1])
                    t &+= 1
                }
                RequantizationLanes.storeBlock(
                    even: lanes.apply(even, group: 2 * block), odd: lanes.apply(odd, group: 2 * block + 1),
                    flip: isUnsigned ? 0x80 : 0, to: out + block * 8)
                block += 1
            }
        }
    }

    /// One output row, every channel in scalar Swift (taps outside the input skipped).
    func scalarRow(_ row: Int, input: UnsafePointer<Int8>, output: UnsafeMutablePointer<Int8>) {
        let g = geometry
        let b = row / g.outputHeight
        let oy = row % g.outputHeight
        let cin = g.inputChannels
        let cout = g.outputChannels
        let rowY0 = oy * g.strideHeight - g.paddingTop
        let tapRows = g.tapRows(from: rowY0)
        for ox in 0..<g.outputWidth {
            let out = output + ((b * g.outputHeight + oy) * g.outputWidth + ox) * cout
            let x0 = ox * g.strideWidth - g.paddingLeft
            let tapColumns = g.tapColumns(from: x0)
            for c in 0..<cout {
                let ic = c / g.depthMultiplier
                var acc = bias[c]
                for ky in tapRows {
                    let iy = rowY0 + ky * g.dilationHeight
                    for kx in tapColumns {
                        let ix = x0 + kx * g.dilationWidth
                        let byte = input[((b * g.inputHeight + iy) * g.inputWidth + ix) * cin + ic]
                        let x = isUnsigned ? Int32(UInt8(bitPattern: byte)) : Int32(byte)
                        acc &+= (x &- inputZeroPoint) &* Int32(weights[(ky * g.kernelWidth + kx) * cout + c])
                    }
                }
                let scaled = multipliers[c].apply(acc, rounding: rounding.forChannel(c, of: cout)) &+ outputZeroPoint
                out[c] = Int8(truncatingIfNeeded: range.clamp(scaled))
            }
        }
    }
}
