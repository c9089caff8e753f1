/// AVX2 machine code, generated at load for one ``DepthwiseConv2DGeometry`` with depth multiplier 1 and at
/// least 8 channels, that computes whole output rows, clamp included.
///
/// One piece of code is generated per number of in-bounds filter columns `n` that occurs in a row (the interior
/// columns have all `kernelWidth`, border columns fewer). Each is called as
/// `entry(input, weights, bias, output, pixelCount, tapRowCount)`:
/// - `input`: the first pixel's first in-bounds tap (row `oy · strideHeight − paddingTop + kyStart ·
///   dilationHeight`, column `ox · strideWidth − paddingLeft + kxStart · dilationWidth`, channel 0), NHWC;
/// - `weights`: the filter at `(kyStart, kxStart)`, rows `kernelWidth · channels` floats apart;
/// - `bias`: `channels` floats followed by the clamp's lower and upper bound (read only when the clamp is not the
///   identity), a copy this type owns, as it owns a copy of the filter;
/// - `output`: the first pixel's channel 0; pixels follow each other `channels` floats apart;
/// - `pixelCount` ≥ 0 output pixels of one row whose inputs are `strideWidth` pixels apart (all with the same
///   `n`); `tapRowCount` ≥ 0 filter rows from `kyStart` on.
///
/// Strides, dilations, channel count, kernel width and `n` are immediates. Channels go in blocks of 8; when they do
/// not come in eights, the last block starts at channel `channels − 8` and recomputes (to the same values) channels
/// the block before it already stored. Each pixel's block of 8 channels starts
/// from the bias and accumulates its taps in filter-row then filter-column order, each product rounded and then
/// added (`vmulps` + `vaddps`, not a fused multiply-add: the rounding of LiteRT's builtin kernel and of the Swift
/// and reference kernels, which this code matches bit for bit; on this class of CPU the multiply and the add go to
/// different pipes, so it is no slower than an FMA where the loads are the bottleneck), then is clamped with
/// `max(lower, ·)` then `min(upper, ·)` (a NaN sum stays NaN, as in ``ClampRange/apply(_:)``) and stored once.
///
/// Pixels go in groups (a runtime loop over groups, then smaller groups for the rest of the run); inside a group,
/// channels go in steps of `blocks` blocks of 8 (a runtime loop, then one shorter step for the rest); inside that, a
/// runtime loop over filter rows with the `n` filter columns unrolled: each weight vector is loaded once for all
/// pixels of the group, and every pixel's input is the memory operand of its `vmulps`. With `pixels · blocks`
/// accumulators (8 to 12) in flight the multiply and add pipes stay busy despite their latency. When a pixel
/// group's inputs and weights over all channels would crowd L1 (wide layers), the loops swap: each channel step
/// sweeps the whole row, its slice of inputs and weights staying in L1. Border columns (fewer filter columns) are
/// single pixels, 7 channel blocks at a time.
package struct DepthwiseConv2DMachineCode: Sendable {
    /// The code for each number of in-bounds filter columns `0 ... kernelWidth`; nil for counts no column has.
    private let codes: [ExecutableCode?]
    /// Output columns whose taps all lie inside the input: one call for all of them.
    private let interior: Range<Int>
    /// The other output columns: one call each.
    private let borders: [BorderColumn]
    private let geometry: DepthwiseConv2DGeometry
    /// Pixels per group of the main loop.
    package let pixelsPerGroup: Int
    /// Channel blocks of 8 handled together in the main channel loop.
    package let blocksPerStep: Int
    /// Whether each channel step sweeps the whole row (else each pixel group goes through all channels).
    package let channelsOutermost: Bool
    /// The filter and the bias with the clamp bounds, as the code reads them.
    private let constants: AlignedConstants

    /// A border output column: which code runs it, and where its first in-bounds tap and weight are.
    private struct BorderColumn: Sendable {
        /// The output column.
        var column: Int
        /// In-bounds filter columns (index into `codes`).
        var tapColumnCount: Int
        /// Input column of the first in-bounds tap.
        var inputColumn: Int
        /// Floats from a filter row's start to its first in-bounds tap.
        var weightOffset: Int
    }

    /// Generates code for `geometry` and `clamp` and copies `filter` (`[1, kernelHeight, kernelWidth,
    /// outputChannels]`) and `bias` (`[outputChannels]`, or nil for zeros); neither pointer is retained. Returns nil
    /// when the geometry is not one it handles (depth multiplier other than 1, fewer than 8 channels, offsets beyond
    /// 32-bit displacements), when the CPU cannot run AVX2 + FMA, or when code cannot be assembled or mapped (the
    /// Swift path runs instead).
    package init?(
        geometry g: DepthwiseConv2DGeometry, clamp: ClampRange, filter: UnsafePointer<Float>,
        bias: UnsafePointer<Float>?
    ) {
        guard HostCPU.supportsGeneratedAVX2, g.isValid, g.depthMultiplier == 1, g.outputChannels >= 8 else {
            return nil
        }
        let blockCount = (g.outputChannels + 7) / 8
        // Twelve accumulators (4 pixels × 3 blocks) when the channels allow, else eight.
        let plan: (pixels: Int, blocks: Int) =
            switch blockCount {
            case 1: (8, 1)
            case 2, 4: (4, 2)
            default: (4, 3)
            }
        // When one pixel group's inputs and weights over all channels would crowd L1, sweep the row once per
        // channel step instead (that step's slice of the inputs and weights stays in L1 across the row).
        let groupInputColumns = (plan.pixels - 1) * g.strideWidth + (g.kernelWidth - 1) * g.dilationWidth + 1
        let groupBytes = g.kernelHeight * (groupInputColumns + g.kernelWidth) * g.outputChannels * 4
        let channelsOutermost = groupBytes > Self.channelsOutermostThreshold
        let interior = g.interiorColumns
        var borders: [BorderColumn] = []
        var needed = Set<Int>()
        if !interior.isEmpty { needed.insert(g.kernelWidth) }
        for ox in 0..<g.outputWidth where !interior.contains(ox) {
            let ix0 = ox * g.strideWidth - g.paddingLeft
            let taps = g.tapColumns(from: ix0)
            borders.append(
                BorderColumn(
                    column: ox, tapColumnCount: taps.count, inputColumn: ix0 + taps.lowerBound * g.dilationWidth,
                    weightOffset: taps.lowerBound * g.outputChannels))
            needed.insert(taps.count)
        }
        var codes = [ExecutableCode?](repeating: nil, count: g.kernelWidth + 1)
        do {
            for tapColumns in needed {
                guard let layout = Layout(geometry: g, clamp: clamp, tapColumns: tapColumns) else { return nil }
                // Fewer columns than the filter's: a border column's code, always called for one pixel, so it
                // takes the channels 7 blocks at a time.
                let code =
                    tapColumns < g.kernelWidth
                    ? try Self.assemble(layout, pixels: 1, blocks: 7, channelsOutermost: false)
                    : try Self.assemble(
                        layout, pixels: plan.pixels, blocks: plan.blocks, channelsOutermost: channelsOutermost)
                codes[tapColumns] = try ExecutableCode(code)
            }
        } catch {
            return nil
        }
        self.codes = codes
        self.interior = interior
        self.borders = borders
        self.geometry = g
        self.pixelsPerGroup = plan.pixels
        self.blocksPerStep = plan.blocks
        self.channelsOutermost = channelsOutermost
        self.constants = AlignedConstants(geometry: g, clamp: clamp, filter: filter, bias: bias)
    }

    /// Bytes of one pixel group's inputs and weights above which the channel steps go outermost.
    static let channelsOutermostThreshold = 24 << 10

    /// Computes output row `oy` of one image, clamped: `image` is that image's input (NHWC), `tapRows` the filter
    /// rows inside the input for this output row (``DepthwiseConv2DGeometry/tapRows(from:)``), `output` the row's
    /// first float.
    @inline(__always)
    package func convolveRow(
        _ oy: Int, image: UnsafePointer<Float>, tapRows: Range<Int>, output: UnsafeMutablePointer<Float>
    ) {
        let g = geometry
        let weights = UnsafePointer(constants.filter)
        let bias = UnsafePointer(constants.bias)
        let channels = g.outputChannels
        // With no row inside the input nothing is read; any valid address will do.
        let firstRow = tapRows.isEmpty ? 0 : oy * g.strideHeight - g.paddingTop + tapRows.lowerBound * g.dilationHeight
        let inputRow = image + firstRow * g.inputWidth * channels
        let weightRow = weights + tapRows.lowerBound * g.kernelWidth * channels
        let biasAddress = Int(bitPattern: bias)
        if !interior.isEmpty, let code = codes[g.kernelWidth] {
            code.entry(
                Int(bitPattern: inputRow + (interior.lowerBound * g.strideWidth - g.paddingLeft) * channels),
                Int(bitPattern: weightRow), biasAddress, Int(bitPattern: output + interior.lowerBound * channels),
                interior.count, tapRows.count)
        }
        for border in borders {
            guard let code = codes[border.tapColumnCount] else { continue }
            code.entry(
                Int(bitPattern: inputRow + border.inputColumn * channels),
                Int(bitPattern: weightRow + border.weightOffset), biasAddress,
                Int(bitPattern: output + border.column * channels), 1, tapRows.count)
        }
    }

    /// The filter, then the bias followed by the clamp's lower and upper bound, in 64-byte-aligned memory: with the
    /// channels in eights every 32-byte load of them stays inside one cache line (a load that splits a line costs
    /// two).
    private final class AlignedConstants: @unchecked Sendable {
        let filter: UnsafeMutablePointer<Float>
        let bias: UnsafeMutablePointer<Float>
        private let memory: UnsafeMutableRawPointer

        init(
            geometry g: DepthwiseConv2DGeometry, clamp: ClampRange, filter: UnsafePointer<Float>,
            bias: UnsafePointer<Float>?
        ) {
            let channels = g.outputChannels
            let filterCount = g.kernelHeight * g.kernelWidth * channels
            // The bias starts at the next multiple of 16 floats (64 bytes).
            let biasStart = (filterCount + 15) / 16 * 16
            memory = UnsafeMutableRawPointer.allocate(byteCount: (biasStart + channels + 2) * 4, alignment: 64)
            let floats = memory.bindMemory(to: Float.self, capacity: biasStart + channels + 2)
            self.filter = floats
            self.bias = floats + biasStart
            self.filter.initialize(from: filter, count: filterCount)
            if let bias {
                self.bias.initialize(from: bias, count: channels)
            } else {
                self.bias.initialize(repeating: 0, count: channels)
            }
            self.bias[channels] = clamp.lower
            self.bias[channels + 1] = clamp.upper
        }

        deinit { memory.deallocate() }
    }

    /// Byte distances baked into the code as immediates and displacements.
    private struct Layout {
        let channels: Int
        /// Filter columns unrolled per filter row.
        let tapColumns: Int
        /// Between horizontally adjacent output pixels' inputs.
        let pixelStride: Int
        /// Between filter columns' inputs.
        let tapStride: Int
        /// Between filter rows' inputs.
        let inputRowStride: Int
        /// Between filter rows' weights.
        let weightRowStride: Int
        let clampsLower: Bool
        let clampsUpper: Bool

        /// Nil when a distance (up to the largest displacement the code forms) does not fit 32 bits.
        init?(geometry g: DepthwiseConv2DGeometry, clamp: ClampRange, tapColumns: Int) {
            channels = g.outputChannels
            self.tapColumns = tapColumns
            pixelStride = g.strideWidth * g.inputChannels * 4
            tapStride = g.dilationWidth * g.inputChannels * 4
            inputRowStride = g.dilationHeight * g.inputWidth * g.inputChannels * 4
            weightRowStride = g.kernelWidth * channels * 4
            clampsLower = clamp.lower != -.infinity
            clampsUpper = clamp.upper != .infinity
            // The largest group is 8 pixels; its last input is below 8 pixel strides + the last tap + a row.
            let largest =
                8 * pixelStride + tapColumns * tapStride + inputRowStride + weightRowStride + 8 * channels * 4
            guard largest < Int(Int32.max) / 2 else { return nil }
        }
    }

    // Registers. Arguments: rdi input, rsi weights, rdx bias (+ clamp), rcx output, r8 pixels left, r9 filter rows.
    // rax: channel offset in bytes; r10 / r11: input / weights of the current filter row and channel block; rbx:
    // filter rows left. Channels outermost, r12 / r13 / r14 walk the pixels of one channel step. rbx, r12 … r14 are
    // callee-saved, so pushed.
    private static let input = GPR.rdi
    private static let weights = GPR.rsi
    private static let bias = GPR.rdx
    private static let output = GPR.rcx
    private static let pixelsLeft = GPR.r8
    private static let tapRows = GPR.r9
    private static let channelOffset = GPR.rax
    private static let rowInput = GPR.r10
    private static let rowWeights = GPR.r11
    private static let rowsLeft = GPR.rbx
    private static let stepInput = GPR.r12
    private static let stepOutput = GPR.r13
    private static let stepPixelsLeft = GPR.r14

    /// The channel blocks of a step, as byte offsets from `channelOffset`: a runtime loop runs `fullSteps` steps of
    /// `blocks` blocks (offsets `0, 32, …`), then one last step covers the blocks left, the last of which starts at
    /// channel `channels − 8` when the channels do not come in eights (it overlaps the block before it and computes
    /// the shared channels again, to the same values).
    private struct ChannelPlan {
        let fullSteps: Int
        let blocks: Int
        /// Offsets of the last step's blocks from `channelOffset` after the full steps (empty when none is left).
        let lastStep: [Int32]

        init(channels: Int, blocks: Int) {
            let whole = channels / 8
            fullSteps = whole / blocks
            self.blocks = blocks
            let done = fullSteps * blocks * 32
            var last = (0..<(whole % blocks)).map { Int32($0 * 32) }
            if channels % 8 != 0 { last.append(Int32((channels - 8) * 4 - done)) }
            lastStep = last
        }
    }

    private static func assemble(
        _ layout: Layout, pixels: Int, blocks: Int, channelsOutermost: Bool
    ) throws(MachineCodeError) -> [UInt8] {
        var a = X86Assembler()
        a.push(rowsLeft)
        if channelsOutermost {
            for register in [stepInput, stepOutput, stepPixelsLeft] { a.push(register) }
            // One channel step over all pixels, then the next: the step's inputs and weights stay in L1.
            let plan = ChannelPlan(channels: layout.channels, blocks: blocks)
            a.mov(channelOffset, 0)
            func sweep(_ a: inout X86Assembler, offsets: [Int32]) {
                a.lea(stepInput, Memory(input, index: channelOffset, scale: 1))
                a.lea(stepOutput, Memory(output, index: channelOffset, scale: 1))
                a.mov(stepPixelsLeft, pixelsLeft)
                emitPixelLoops(
                    &a, layout, pixels: pixels, input: stepInput, output: stepOutput,
                    pixelsLeft: stepPixelsLeft
                ) { a, group in
                    emitStep(
                        &a, layout, pixels: group, offsets: offsets, input: stepInput, output: stepOutput,
                        indexed: false)
                }
            }
            if plan.fullSteps > 0 {
                let channelLoop = a.makeLabel()
                a.bind(channelLoop)
                sweep(&a, offsets: (0..<blocks).map { Int32($0 * 32) })
                a.add(channelOffset, Int32(blocks * 32))
                if plan.fullSteps > 1 {
                    a.cmp(channelOffset, Int32(plan.fullSteps * blocks * 32))
                    a.jl(channelLoop)
                }
            }
            if !plan.lastStep.isEmpty { sweep(&a, offsets: plan.lastStep) }
            for register in [stepPixelsLeft, stepOutput, stepInput] { a.pop(register) }
        } else {
            emitPixelLoops(&a, layout, pixels: pixels, input: input, output: output, pixelsLeft: pixelsLeft) {
                a, group in
                // Smaller groups take more channel blocks per step, to keep enough accumulators in flight.
                let plan = ChannelPlan(
                    channels: layout.channels, blocks: group == pixels ? blocks : group == 4 ? 3 : group == 2 ? 5 : 7)
                a.mov(channelOffset, 0)
                if plan.fullSteps > 0 {
                    let channelLoop = a.makeLabel()
                    a.bind(channelLoop)
                    emitStep(
                        &a, layout, pixels: group, offsets: (0..<plan.blocks).map { Int32($0 * 32) },
                        input: input, output: output, indexed: true)
                    a.add(channelOffset, Int32(plan.blocks * 32))
                    if plan.fullSteps > 1 {
                        a.cmp(channelOffset, Int32(plan.fullSteps * plan.blocks * 32))
                        a.jl(channelLoop)
                    }
                }
                if !plan.lastStep.isEmpty {
                    emitStep(
                        &a, layout, pixels: group, offsets: plan.lastStep, input: input, output: output,
                        indexed: true)
                }
            }
        }
        a.pop(rowsLeft)
        a.vzeroupper()
        a.ret()
        return try a.finish()
    }

    /// Loops over the pixels: groups of `pixels` while that many are left, then smaller groups (halving down to
    /// single pixels) for the rest; `body` emits one
    /// group's work, after which `input` / `output` advance past the group and `pixelsLeft` counts down.
    private static func emitPixelLoops(
        _ a: inout X86Assembler, _ layout: Layout, pixels: Int, input: GPR, output: GPR, pixelsLeft: GPR,
        body: (inout X86Assembler, Int) -> Void
    ) {
        for group in [pixels] + [4, 2, 1].filter({ $0 < pixels }) {
            let loop = a.makeLabel()
            let next = a.makeLabel()
            a.bind(loop)
            a.cmp(pixelsLeft, Int32(group))
            a.jl(next)
            body(&a, group)
            a.add(input, Int32(group * layout.pixelStride))
            a.add(output, Int32(group * layout.channels * 4))
            a.sub(pixelsLeft, Int32(group))
            a.jmp(loop)
            a.bind(next)
        }
    }

    /// The channel blocks at `offsets` (bytes from `channelOffset`) of `pixels` pixels: bias, all filter rows, clamp,
    /// store. `input` / `output` point at the first pixel, at channel 0 when `indexed` (`channelOffset` is added) or
    /// already at the step's first channel.
    private static func emitStep(
        _ a: inout X86Assembler, _ layout: Layout, pixels: Int, offsets: [Int32], input: GPR, output: GPR,
        indexed: Bool
    ) {
        let blocks = offsets.count
        // ymm0 … ymm(pixels · blocks − 1) accumulate (pixel-major); the next `blocks` registers hold weights.
        func accumulator(_ p: Int, _ b: Int) -> YMM { YMM(p * blocks + b) }
        let firstWeight = pixels * blocks
        // The last register holds each product before it is added.
        let product = YMM(15)
        precondition(firstWeight + max(blocks, 2) <= 15, "DepthwiseConv2DMachineCode: too many registers")
        for p in 0..<pixels {
            for b in 0..<blocks {
                a.vmovups(accumulator(p, b), Memory(bias, index: channelOffset, scale: 1, offsets[b]))
            }
        }
        let rowLoop = a.makeLabel()
        let rowsDone = a.makeLabel()
        if indexed {
            a.lea(rowInput, Memory(input, index: channelOffset, scale: 1))
        } else {
            a.mov(rowInput, input)
        }
        a.lea(rowWeights, Memory(weights, index: channelOffset, scale: 1))
        a.mov(rowsLeft, tapRows)
        a.test(rowsLeft, rowsLeft)
        a.jz(rowsDone)
        a.bind(rowLoop)
        for kx in 0..<layout.tapColumns {
            for b in 0..<blocks {
                let weight = YMM(firstWeight + b)
                a.vmovups(weight, Memory(rowWeights, Int32(kx * layout.channels * 4) + offsets[b]))
                for p in 0..<pixels {
                    a.vmulps(
                        product, weight,
                        Memory(rowInput, Int32(p * layout.pixelStride + kx * layout.tapStride) + offsets[b]))
                    a.vaddps(accumulator(p, b), accumulator(p, b), product)
                }
            }
        }
        a.add(rowInput, Int32(layout.inputRowStride))
        a.add(rowWeights, Int32(layout.weightRowStride))
        a.dec(rowsLeft)
        a.jnz(rowLoop)
        a.bind(rowsDone)
        // max(lower, acc) then min(upper, acc): the accumulator is the second operand, which vmaxps / vminps
        // return when either is NaN, so a NaN sum passes through as in ClampRange.apply.
        let lower = YMM(firstWeight)
        let upper = YMM(firstWeight + 1)
        if layout.clampsLower { a.vbroadcastss(lower, Memory(bias, Int32(layout.channels * 4))) }
        if layout.clampsUpper { a.vbroadcastss(upper, Memory(bias, Int32(layout.channels * 4 + 4))) }
        for p in 0..<pixels {
            for b in 0..<blocks {
                let sum = accumulator(p, b)
                if layout.clampsLower { a.vmaxps(sum, lower, sum) }
                if layout.clampsUpper { a.vminps(sum, upper, sum) }
                let displacement = Int32(p * layout.channels * 4) + offsets[b]
                a.vmovups(
                    indexed
                        ? Memory(output, index: channelOffset, scale: 1, displacement) : Memory(output, displacement),
                    sum)
            }
        }
    }
}
