/// AVX2 (or AVX-512) machine code, generated at load for one ``DepthwiseConv2DGeometry`` with depth multiplier 1 and
/// at least 8 channels, that computes whole output rows, clamp included.
///
/// A row's output columns are cut at load into groups of adjacent pixels, each pixel with its own in-bounds
/// filter columns (border columns have fewer; out-of-bounds taps are simply not emitted), so border pixels run with
/// their neighbours and share their weight loads. Short rows (at most 4 groups) are unrolled whole; longer rows
/// run unrolled border groups, a runtime loop over interior groups, and unrolled groups for the rest.
///
/// Two loop orders, chosen at load:
/// - pixel groups outermost (narrow layers): called once per output row as `entry(input, weights, bias, output,
///   0, tapRowCount)` with `input` the row's column 0 of the first in-bounds filter row (`kyStart`), channel 0,
///   `weights` the filter at `(kyStart, 0)`, `output` the row's first float; each group goes through all channels
///   in steps (smaller groups take more blocks per step).
/// - channel steps outermost (wide layers, whose pixel groups' inputs and weights over all channels would crowd
///   L1): called once per range of rows of one image as `entry(imageInput, 0, bias, imageOutput, firstEntry,
///   endEntry)` with entries of a row table built at load (each row's input and output offsets, first in-bounds
///   filter row and filter row count); each channel step sweeps all those rows before the next, so its slice of the
///   inputs and weights comes from L2 once and stays in L1.
///
/// `bias` is `channels` floats followed by the clamp's lower and upper bound (read only when the clamp is not the
/// identity), a copy this type owns, as it owns a copy of the filter. Strides, dilations, channel count and each
/// pixel's filter columns are immediates and displacements. Channels go in blocks of 8 (16 in zmm registers with
/// AVX-512, for 16 channels or more); when they do not come in whole blocks, the last block starts at channel
/// `channels − 8` (`− 16`) and recomputes (to the same values) channels the block before it already stored. Each
/// pixel's block of channels starts from the bias and accumulates its taps filter column by filter column (each
/// column's filter rows in a runtime loop), one fused multiply-add per tap: XNNPACK's
/// order and rounding (its packed weights are column-major), which MediaPipe runs and which
/// `Reference.depthwiseConv2D(…, arithmetic: .xnnpack)` reproduces bit for bit. The sum is then clamped with
/// `max(lower, ·)` then `min(upper, ·)` (a NaN sum stays NaN, as in ``ClampRange/apply(_:)``) and stored once. Each
/// weight vector is loaded once for all pixels of the group that use it, and every pixel's input is the memory
/// operand of its FMA; with `pixels · blocks` accumulators (8 to 14) in flight the FMA pipes stay busy despite their
/// latency.
package struct DepthwiseConv2DMachineCode: Sendable {
    /// The code for one output row.
    private let code: ExecutableCode
    private let geometry: Conv2DGeometry
    /// Pixels per group of the main loop.
    package let pixelsPerGroup: Int
    /// Channel blocks (of 8, or 16 with AVX-512) handled together in the main channel loop.
    package let blocksPerStep: Int
    /// The vectors the code uses: AVX-512 (blocks of 16 channels) or AVX2 (blocks of 8).
    package let instructions: GeneratedInstructionSet
    /// Whether each channel step sweeps the whole row (else each pixel group goes through all channels).
    package let channelsOutermost: Bool
    /// Output columns computed by the runtime loop over interior groups (the others are unrolled groups).
    package let loopedColumns: Range<Int>
    /// The filter and the bias with the clamp bounds, as the code reads them.
    private let constants: AlignedConstants

    /// Generates code for `geometry` and `clamp` and copies `filter` (`[1, kernelHeight, kernelWidth,
    /// outputChannels]`) and `bias` (`[outputChannels]`, or nil for zeros); neither pointer is retained. Returns nil
    /// when the geometry is not one it handles (depth multiplier other than 1, fewer than 8 channels, offsets beyond
    /// 32-bit displacements, rows of more than 64 columns with too few interior ones to loop over), when the CPU
    /// cannot run AVX2 + FMA, or when code cannot be assembled or mapped (the Swift path runs instead).
    package init?(
        geometry depthwise: DepthwiseConv2DGeometry, clamp: ClampRange, filter: UnsafePointer<Float>,
        bias: UnsafePointer<Float>?, instructions: GeneratedInstructionSet = .best
    ) {
        let g = depthwise.convolution
        guard HostCPU.supportsGeneratedAVX2, depthwise.isValid, depthwise.depthMultiplier == 1, g.outputChannels >= 8
        else {
            return nil
        }
        let vector: FloatVectorWidth =
            instructions == .avx512 && HostCPU.supportsGeneratedAVX512 && g.outputChannels >= 16 ? .avx512 : .avx2
        self.instructions = vector.isWide ? .avx512 : .avx2
        let blockCount = (g.outputChannels + vector.lanes - 1) / vector.lanes
        // Twelve accumulators (4 pixels × 3 blocks) when the channels allow, else eight.
        var plan: (pixels: Int, blocks: Int) =
            switch blockCount {
            case 1: (8, 1)
            case 2, 4: (4, 2)
            default: (4, 3)
            }
        // When one pixel group's inputs and weights over all channels would crowd L1, sweep the row once per
        // channel step instead (that step's slice of the inputs and weights stays in L1 across the row).
        let groupInputColumns =
            (plan.pixels - 1) * g.window.strideWidth + (g.window.kernelWidth - 1) * g.window.dilationWidth + 1
        let groupBytes = g.window.kernelHeight * (groupInputColumns + g.window.kernelWidth) * g.outputChannels * 4
        let channelsOutermost = groupBytes > Self.channelsOutermostThreshold
        // Sweeping rows, steps of 2 blocks (64 bytes, a cache line when the channels come in sixteens): measured
        // faster than 3 blocks on efficientnet's wide layers, although each weight load serves 8 products, not 12.
        if channelsOutermost && plan.blocks == 3 { plan.blocks = 2 }
        guard let layout = Layout(geometry: g, clamp: clamp, vector: vector),
            let row = RowPlan(geometry: g, pixels: plan.pixels)
        else { return nil }
        do {
            code = try ExecutableCode(
                Self.assemble(layout, row: row, blocks: plan.blocks, channelsOutermost: channelsOutermost))
        } catch {
            return nil
        }
        self.geometry = g
        self.pixelsPerGroup = plan.pixels
        self.blocksPerStep = plan.blocks
        self.channelsOutermost = channelsOutermost
        self.loopedColumns = row.loopStart..<(row.loopStart + row.loopCount * plan.pixels)
        self.constants = AlignedConstants(geometry: g, clamp: clamp, filter: filter, bias: bias)
    }

    /// Bytes of one pixel group's inputs and weights above which the channel steps go outermost.
    static let channelsOutermostThreshold = 24 << 10

    /// Computes output row `oy` of one image, clamped: `image` is that image's input (NHWC), `tapRows` the filter
    /// rows inside the input for this output row (``Conv2DGeometry/tapRows(from:)``), `output` the row's
    /// first float. Only when not ``sweepsRows``.
    @inline(__always)
    package func convolveRow(
        _ oy: Int, image: UnsafePointer<Float>, tapRows: Range<Int>, output: UnsafeMutablePointer<Float>
    ) {
        assert(!sweepsRows, "DepthwiseConv2DMachineCode: this code sweeps rows (convolveRows)")
        let g = geometry
        let channels = g.outputChannels
        // With no row inside the input nothing is read; any valid address will do.
        let firstRow =
            tapRows.isEmpty
            ? 0 : oy * g.window.strideHeight - g.window.paddingTop + tapRows.lowerBound * g.window.dilationHeight
        let inputRow = image + firstRow * g.inputWidth * channels
        let weightRow = UnsafePointer(constants.filter) + tapRows.lowerBound * g.window.kernelWidth * channels
        code.entry(
            Int(bitPattern: inputRow), Int(bitPattern: weightRow), Int(bitPattern: UnsafePointer(constants.bias)),
            Int(bitPattern: output), 0, tapRows.count)
    }

    /// Whether runs go through ``convolveRows(_:input:output:)`` (each channel step sweeping a range of rows)
    /// instead of ``convolveRow(_:image:tapRows:output:)``: so when the channel steps are outermost.
    package var sweepsRows: Bool { channelsOutermost }

    /// Computes output rows `rows` (flattened over batch and outputHeight), clamped, of the whole `input` (NHWC)
    /// into the whole `output`; only when ``sweepsRows``. Each channel step goes over all of the range's rows of an
    /// image before the next, so the step's slice of the inputs (every input row under the range) and its
    /// weights are read from L2 once and then stay in L1.
    package func convolveRows(_ rows: Range<Int>, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let g = geometry
        let imageInput = g.inputHeight * g.inputWidth * g.inputChannels
        let imageOutput = g.outputHeight * g.outputWidth * g.outputChannels
        let table = UnsafePointer(constants.rowTable)
        let bias = Int(bitPattern: UnsafePointer(constants.bias))
        var row = rows.lowerBound
        while row < rows.upperBound {
            let image = row / g.outputHeight
            let end = min(rows.upperBound, (image + 1) * g.outputHeight)
            code.entry(
                Int(bitPattern: input + image * imageInput), 0, bias, Int(bitPattern: output + image * imageOutput),
                Int(bitPattern: table + (row - image * g.outputHeight) * RowEntry.count),
                Int(bitPattern: table + (end - image * g.outputHeight) * RowEntry.count))
            row = end
        }
    }

    /// A row table entry, read by the row-sweeping code: the byte offset from the image's input to the first
    /// input row under the output row's in-bounds filter rows (0 when there is none), the byte offset of the
    /// output row, the address of the first in-bounds filter row's weights, and the number of in-bounds filter
    /// rows.
    private enum RowEntry {
        static let count = 4
        static let input: Int32 = 0
        static let output: Int32 = 8
        static let weights: Int32 = 16
        static let tapRows: Int32 = 24
    }

    /// The filter, then the bias followed by the clamp's lower and upper bound, in 64-byte-aligned memory: with the
    /// channels in eights every 32-byte load of them stays inside one cache line (a load that splits a line costs
    /// two).
    private final class AlignedConstants: @unchecked Sendable {
        let filter: UnsafeMutablePointer<Float>
        let bias: UnsafeMutablePointer<Float>
        /// ``RowEntry/count`` integers per output row (see ``RowEntry``).
        let rowTable: UnsafeMutablePointer<Int>
        private let memory: UnsafeMutableRawPointer

        init(
            geometry g: Conv2DGeometry, clamp: ClampRange, filter: UnsafePointer<Float>,
            bias: UnsafePointer<Float>?
        ) {
            let channels = g.outputChannels
            let filterCount = g.window.kernelHeight * g.window.kernelWidth * channels
            // The bias starts at the next multiple of 16 floats (64 bytes).
            let biasStart = (filterCount + 15) / 16 * 16
            // The row table starts at the next multiple of 16 floats after the bias and the bounds.
            let tableStart = (biasStart + channels + 2 + 15) / 16 * 16
            let tableCount = g.outputHeight * RowEntry.count
            memory = UnsafeMutableRawPointer.allocate(byteCount: tableStart * 4 + tableCount * 8, alignment: 64)
            let floats = memory.bindMemory(to: Float.self, capacity: tableStart)
            self.filter = floats
            self.bias = floats + biasStart
            rowTable = (memory + tableStart * 4).bindMemory(to: Int.self, capacity: tableCount)
            for oy in 0..<g.outputHeight {
                let origin = oy * g.window.strideHeight - g.window.paddingTop
                let taps = g.tapRows(from: origin)
                let firstRow = taps.isEmpty ? 0 : origin + taps.lowerBound * g.window.dilationHeight
                let entry = rowTable + oy * RowEntry.count
                entry[0] = firstRow * g.inputWidth * g.inputChannels * 4
                entry[1] = oy * g.outputWidth * channels * 4
                entry[2] = Int(bitPattern: floats + taps.lowerBound * g.window.kernelWidth * channels)
                entry[3] = taps.count
            }
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
        /// The vectors, and so the channels per block.
        let vector: FloatVectorWidth
        /// Filter columns.
        let kernelWidth: Int
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
        init?(geometry g: Conv2DGeometry, clamp: ClampRange, vector: FloatVectorWidth) {
            channels = g.outputChannels
            self.vector = vector
            kernelWidth = g.window.kernelWidth
            pixelStride = g.window.strideWidth * g.inputChannels * 4
            tapStride = g.window.dilationWidth * g.inputChannels * 4
            inputRowStride = g.window.dilationHeight * g.inputWidth * g.inputChannels * 4
            weightRowStride = g.window.kernelWidth * channels * 4
            clampsLower = clamp.lower != -.infinity
            clampsUpper = clamp.upper != .infinity
            // Inputs are addressed from a row's column 0 (or a later column), outputs from the row's start.
            let inputColumns =
                g.outputWidth * g.window.strideWidth + g.window.kernelWidth * g.window.dilationWidth
                + g.window.paddingLeft
            let largest =
                inputColumns * g.inputChannels * 4 + inputRowStride + weightRowStride
                + (g.outputWidth + 8) * channels * 4
            guard largest < Int(Int32.max) / 2 else { return nil }
        }
    }

    /// An output pixel of a group: where its window starts and its output goes (bytes from the group's base
    /// registers; the window offset may be negative inside the left padding, the taps read are not) and its
    /// in-bounds filter columns.
    private struct Pixel {
        var inputOffset: Int
        var outputOffset: Int
        var taps: Range<Int>
    }

    /// How a row's output columns are grouped: unrolled groups of adjacent columns (each pixel with its own
    /// in-bounds filter columns, so border columns need no code of their own and share weight loads with their
    /// neighbours), and, on wide rows, a runtime loop over interior groups of `pixels` columns in the middle.
    private struct RowPlan {
        /// Groups before the loop, offsets from the row's start (input column 0, output column 0).
        var lead: [[Pixel]]
        /// First column of the loop and its number of groups (0: no loop).
        var loopStart: Int
        var loopCount: Int
        /// The loop's group, offsets from the loop's cursors (its first pixel's window and output).
        var loopGroup: [Pixel]
        /// Input / output bytes from the row's start to the loop's first window / output.
        var loopInputOffset: Int
        var loopOutputOffset: Int
        /// Groups after the loop, offsets from the row's start.
        var trail: [[Pixel]]

        /// Nil for a row of more than 64 columns without a loop (it would all be unrolled).
        init?(geometry g: Conv2DGeometry, pixels: Int) {
            let width = g.outputWidth
            let interior = g.interiorColumns
            let pixelBytes = g.inputChannels * 4
            func pixel(_ ox: Int, inputBase: Int, outputBase: Int) -> Pixel {
                let window = ox * g.window.strideWidth - g.window.paddingLeft
                return Pixel(
                    inputOffset: (window - inputBase) * pixelBytes,
                    outputOffset: (ox - outputBase) * g.outputChannels * 4,
                    taps: g.tapColumns(from: window))
            }
            // `columns` in as few groups of at most `pixels` as possible, their sizes as even as possible.
            func groups(_ columns: Range<Int>) -> [[Pixel]] {
                guard !columns.isEmpty else { return [] }
                let count = (columns.count + pixels - 1) / pixels
                var result: [[Pixel]] = []
                var start = columns.lowerBound
                for index in 0..<count {
                    let size = columns.count / count + (index < columns.count % count ? 1 : 0)
                    result.append((start..<(start + size)).map { pixel($0, inputBase: 0, outputBase: 0) })
                    start += size
                }
                return result
            }
            // Short rows are unrolled whole; longer ones loop over the interior groups between the border groups.
            var start = 0
            var count = 0
            if width > 4 * pixels && !interior.isEmpty {
                start = (interior.lowerBound + pixels - 1) / pixels * pixels
                count = max(0, (interior.upperBound - start) / pixels)
            }
            if count == 0 {
                guard width <= 64 else { return nil }
                start = 0
            }
            let loopWindow = start * g.window.strideWidth - g.window.paddingLeft
            loopGroup = (0..<pixels).map { pixel(start + $0, inputBase: loopWindow, outputBase: start) }
            loopInputOffset = loopWindow * pixelBytes
            loopOutputOffset = start * g.outputChannels * 4
            loopStart = start
            loopCount = count
            lead = groups(0..<start)
            trail = groups((start + count * pixels)..<width)
        }
    }

    // Registers. Arguments, one row (pixel groups outermost): rdi input row (column 0 of the first filter row
    // inside the input), rsi weights (that filter row), rdx bias (+ clamp), rcx output row, r9 filter rows.
    // Arguments, sweeping rows (channel steps outermost): rdi the image's input, rdx bias, rcx the image's output,
    // r8 / r9 the row table's first / end entry; rsi walks the table. rax: channel offset in bytes; r10 / r11:
    // input / weights of the current filter row and channel block; rbx: filter rows left. Channels outermost,
    // r12 / r13 are the row's input and output at the step's first channel. r14 / r15 walk the looped groups, rbp
    // counts them. rbx, rbp, r12 … r15 are callee-saved, so pushed.
    private static let input = GPR.rdi
    private static let weights = GPR.rsi
    private static let tableCursor = GPR.rsi
    private static let bias = GPR.rdx
    private static let output = GPR.rcx
    private static let tableStart = GPR.r8
    private static let tableEnd = GPR.r9
    private static let loopGroupsLeft = GPR.rbp
    private static let tapRows = GPR.r9
    private static let channelOffset = GPR.rax
    private static let rowInput = GPR.r10
    private static let rowWeights = GPR.r11
    private static let rowsLeft = GPR.rbx
    private static let stepInput = GPR.r12
    private static let stepOutput = GPR.r13
    private static let cursorInput = GPR.r14
    private static let cursorOutput = GPR.r15

    /// The channel blocks of a step, as byte offsets from `channelOffset`: a runtime loop runs `fullSteps` steps of
    /// `blocks` blocks of `lanes` channels (offsets `0, 4 · lanes, …`), then one last step covers the blocks left,
    /// the last of which starts at channel `channels − lanes` when the channels do not come in whole blocks (it
    /// overlaps the block before it and computes the shared channels again, to the same values).
    private struct ChannelPlan {
        let fullSteps: Int
        let blocks: Int
        /// Bytes of one block.
        let blockBytes: Int
        /// Offsets of the last step's blocks from `channelOffset` after the full steps (empty when none is left).
        let lastStep: [Int32]

        init(channels: Int, blocks: Int, lanes: Int) {
            let whole = channels / lanes
            fullSteps = whole / blocks
            self.blocks = blocks
            let bytes = 4 * lanes
            blockBytes = bytes
            let done = fullSteps * blocks * bytes
            var last = (0..<(whole % blocks)).map { Int32($0 * bytes) }
            if channels % lanes != 0 { last.append(Int32((channels - lanes) * 4 - done)) }
            lastStep = last
        }

        /// The offsets of a full step's blocks.
        var fullStep: [Int32] { (0..<blocks).map { Int32($0 * blockBytes) } }
    }

    private static let savedRegisters = [rowsLeft, loopGroupsLeft, stepInput, stepOutput, cursorInput, cursorOutput]

    private static func assemble(
        _ layout: Layout, row: RowPlan, blocks: Int, channelsOutermost: Bool
    ) throws(MachineCodeError) -> [UInt8] {
        var a = X86Assembler()
        for register in savedRegisters { a.push(register) }
        if channelsOutermost {
            // One channel step over all the rows, then the next: the step's inputs and weights stay in L1.
            let plan = ChannelPlan(channels: layout.channels, blocks: blocks, lanes: layout.vector.lanes)
            let done = a.makeLabel()
            a.cmp(tableStart, tableEnd)
            a.jge(done)
            a.mov(channelOffset, 0)
            func sweep(_ a: inout X86Assembler, offsets: [Int32]) {
                a.mov(tableCursor, tableStart)
                let rowLoop = a.makeLabel()
                a.bind(rowLoop)
                a.mov(stepInput, Memory(tableCursor, RowEntry.input))
                a.add(stepInput, input)
                a.add(stepInput, channelOffset)
                a.mov(stepOutput, Memory(tableCursor, RowEntry.output))
                a.add(stepOutput, output)
                a.add(stepOutput, channelOffset)
                emitRow(&a, layout, row, input: stepInput, output: stepOutput) { a, group, input, output in
                    emitStep(
                        &a, layout, group: group, offsets: offsets, input: input, output: output, indexed: false,
                        table: tableCursor)
                }
                a.add(tableCursor, Int32(RowEntry.count * 8))
                a.cmp(tableCursor, tableEnd)
                a.jl(rowLoop)
            }
            if plan.fullSteps > 0 {
                let channelLoop = a.makeLabel()
                a.bind(channelLoop)
                sweep(&a, offsets: plan.fullStep)
                a.add(channelOffset, Int32(blocks * plan.blockBytes))
                if plan.fullSteps > 1 {
                    a.cmp(channelOffset, Int32(plan.fullSteps * blocks * plan.blockBytes))
                    a.jl(channelLoop)
                }
            }
            if !plan.lastStep.isEmpty { sweep(&a, offsets: plan.lastStep) }
            a.bind(done)
        } else {
            let pixels = row.loopGroup.count
            emitRow(&a, layout, row, input: input, output: output) { a, group, input, output in
                // Smaller groups take more channel blocks per step, to keep enough accumulators in flight (15
                // registers for the accumulators and one weight per block).
                let plan = ChannelPlan(
                    channels: layout.channels,
                    blocks: group.count == pixels ? blocks : min(7, 15 / (group.count + 1)), lanes: layout.vector.lanes)
                a.mov(channelOffset, 0)
                if plan.fullSteps > 0 {
                    let channelLoop = a.makeLabel()
                    a.bind(channelLoop)
                    emitStep(
                        &a, layout, group: group, offsets: plan.fullStep, input: input, output: output,
                        indexed: true)
                    a.add(channelOffset, Int32(plan.blocks * plan.blockBytes))
                    if plan.fullSteps > 1 {
                        a.cmp(channelOffset, Int32(plan.fullSteps * plan.blocks * plan.blockBytes))
                        a.jl(channelLoop)
                    }
                }
                if !plan.lastStep.isEmpty {
                    emitStep(
                        &a, layout, group: group, offsets: plan.lastStep, input: input, output: output,
                        indexed: true)
                }
            }
        }
        for register in savedRegisters.reversed() { a.pop(register) }
        a.vzeroupper()
        a.ret()
        return try a.finish()
    }

    /// One row's groups in order: the unrolled groups before the loop, the loop over interior groups, the unrolled
    /// groups after it. `body` emits one group's work from base registers (`input` / `output`, or the loop's
    /// cursors), which it must leave unchanged; `rbp`, `r14`, `r15` are the loop's.
    private static func emitRow(
        _ a: inout X86Assembler, _ layout: Layout, _ row: RowPlan, input: GPR, output: GPR,
        body: (inout X86Assembler, [Pixel], GPR, GPR) -> Void
    ) {
        for group in row.lead { body(&a, group, input, output) }
        if row.loopCount > 0 {
            a.lea(cursorInput, Memory(input, Int32(row.loopInputOffset)))
            a.lea(cursorOutput, Memory(output, Int32(row.loopOutputOffset)))
            a.mov(loopGroupsLeft, row.loopCount)
            let loop = a.makeLabel()
            a.bind(loop)
            body(&a, row.loopGroup, cursorInput, cursorOutput)
            a.add(cursorInput, Int32(row.loopGroup.count * layout.pixelStride))
            a.add(cursorOutput, Int32(row.loopGroup.count * layout.channels * 4))
            a.dec(loopGroupsLeft)
            a.jnz(loop)
        }
        for group in row.trail { body(&a, group, input, output) }
    }

    /// The channel blocks at `offsets` (bytes from `channelOffset`) of the pixels of `group`: bias, all filter
    /// rows, clamp, store. Each pixel multiplies only its own in-bounds filter columns; a filter column's weights
    /// are loaded once for all pixels that use it. `input` / `output` are the group's base registers, at channel 0
    /// when `indexed` (`channelOffset` is added) or already at the step's first channel. The first in-bounds
    /// filter row's weights and the filter row count come from the row table entry at `table`, else from the
    /// arguments.
    private static func emitStep(
        _ a: inout X86Assembler, _ layout: Layout, group: [Pixel], offsets: [Int32], input: GPR, output: GPR,
        indexed: Bool, table: GPR? = nil
    ) {
        let blocks = offsets.count
        let pixels = group.count
        let vector = layout.vector
        // Vectors 0 … pixels · blocks − 1 accumulate (pixel-major); the next `blocks` registers hold weights.
        func accumulator(_ p: Int, _ b: Int) -> Int { p * blocks + b }
        let firstWeight = pixels * blocks

        precondition(firstWeight + max(blocks, 2) <= 15, "DepthwiseConv2DMachineCode: too many registers")
        for p in 0..<pixels {
            for b in 0..<blocks {
                vector.load(&a, accumulator(p, b), Memory(bias, index: channelOffset, scale: 1, offsets[b]))
            }
        }
        let usedColumns = group.map(\.taps).filter { !$0.isEmpty }
        if let first = usedColumns.map(\.lowerBound).min(), let end = usedColumns.map(\.upperBound).max() {
            // Filter column outermost, then the filter rows: XNNPACK's tap order (its packed weights are
            // column-major), one fused multiply-add per tap.
            for kx in first..<end {
                let users = (0..<pixels).filter { group[$0].taps.contains(kx) }
                guard !users.isEmpty else { continue }
                let rowLoop = a.makeLabel()
                let rowsDone = a.makeLabel()
                if indexed {
                    a.lea(rowInput, Memory(input, index: channelOffset, scale: 1))
                } else {
                    a.mov(rowInput, input)
                }
                if let table {
                    a.mov(rowWeights, Memory(table, RowEntry.weights))
                    a.add(rowWeights, channelOffset)
                    a.mov(rowsLeft, Memory(table, RowEntry.tapRows))
                } else {
                    a.lea(rowWeights, Memory(weights, index: channelOffset, scale: 1))
                    a.mov(rowsLeft, tapRows)
                }
                a.test(rowsLeft, rowsLeft)
                a.jz(rowsDone)
                a.bind(rowLoop)
                for b in 0..<blocks {
                    let weight = firstWeight + b
                    vector.load(&a, weight, Memory(rowWeights, Int32(kx * layout.channels * 4) + offsets[b]))
                    for p in users {
                        vector.fma(
                            &a, accumulator(p, b), weight,
                            Memory(rowInput, Int32(group[p].inputOffset + kx * layout.tapStride) + offsets[b]))
                    }
                }
                a.add(rowInput, Int32(layout.inputRowStride))
                a.add(rowWeights, Int32(layout.weightRowStride))
                a.dec(rowsLeft)
                a.jnz(rowLoop)
                a.bind(rowsDone)
            }
        }
        // max(lower, acc) then min(upper, acc): the accumulator is the second operand, which vmaxps / vminps
        // return when either is NaN, so a NaN sum passes through as in ClampRange.apply.
        let lower = firstWeight
        let upper = firstWeight + 1
        if layout.clampsLower { vector.broadcast(&a, lower, Memory(bias, Int32(layout.channels * 4))) }
        if layout.clampsUpper { vector.broadcast(&a, upper, Memory(bias, Int32(layout.channels * 4 + 4))) }
        for p in 0..<pixels {
            for b in 0..<blocks {
                let sum = accumulator(p, b)
                if layout.clampsLower { vector.maximum(&a, sum, lower, sum) }
                if layout.clampsUpper { vector.minimum(&a, sum, upper, sum) }
                let displacement = Int32(group[p].outputOffset) + offsets[b]
                vector.store(
                    &a,
                    indexed
                        ? Memory(output, index: channelOffset, scale: 1, displacement) : Memory(output, displacement),
                    sum)
            }
        }
    }
}
