/// AVX2 + FMA machine code, generated at load for one ``DepthwiseConv2DGeometry`` with depth multiplier 1 and
/// channels in eights, that computes whole output rows, clamp included.
///
/// One piece of code is generated per number of in-bounds filter columns `n` that occurs in a row (the interior
/// columns have all `kernelWidth`, border columns fewer). Each is called as
/// `entry(input, weights, bias, output, pixelCount, tapRowCount)`:
/// - `input`: the first pixel's first in-bounds tap (row `oy · strideHeight − paddingTop + kyStart ·
///   dilationHeight`, column `ox · strideWidth − paddingLeft + kxStart · dilationWidth`, channel 0), NHWC;
/// - `weights`: the filter at `(kyStart, kxStart)`, rows `kernelWidth · channels` floats apart;
/// - `bias`: `channels` floats followed by the clamp's lower and upper bound (read only when the clamp is not the
///   identity);
/// - `output`: the first pixel's channel 0; pixels follow each other `channels` floats apart;
/// - `pixelCount` ≥ 0 output pixels of one row whose inputs are `strideWidth` pixels apart (all with the same
///   `n`); `tapRowCount` ≥ 0 filter rows from `kyStart` on.
///
/// Strides, dilations, channel count, kernel width and `n` are immediates. Each pixel's block of 8 channels starts
/// from the bias and accumulates its taps in filter-row then filter-column order with one fused multiply-add each
/// (one rounding per tap, where the Swift kernels round the product and the sum separately), then is clamped with
/// `max(lower, ·)` then `min(upper, ·)` (a NaN sum stays NaN, as in ``ClampRange/apply(_:)``) and stored once.
///
/// Pixels go in groups (a runtime loop over groups, then single pixels for the rest of the run); inside a group,
/// channels go in steps of `blocks` blocks of 8 (a runtime loop, then one shorter step for the rest); inside that, a
/// runtime loop over filter rows with the `n` filter columns unrolled: each weight vector is loaded once for all
/// pixels of the group, and every pixel's input is the memory operand of its `vfmadd231ps`. With `pixels · blocks`
/// accumulators (8 to 12) in flight the two FMA pipes stay busy despite the multiply-add latency.
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

    /// Generates code for `geometry` and `clamp`, or returns nil when the geometry is not one it handles (depth
    /// multiplier other than 1, channels not a multiple of 8, offsets beyond 32-bit displacements), when the CPU
    /// cannot run AVX2 + FMA, or when code cannot be assembled or mapped (the Swift path runs instead).
    package init?(geometry g: DepthwiseConv2DGeometry, clamp: ClampRange) {
        guard HostCPU.supportsGeneratedAVX2, g.isValid, g.depthMultiplier == 1, g.outputChannels % 8 == 0 else {
            return nil
        }
        let blockCount = g.outputChannels / 8
        // Twelve accumulators (4 pixels × 3 blocks) when the channels allow, else eight.
        let plan: (pixels: Int, blocks: Int) =
            switch blockCount {
            case 1: (8, 1)
            case 2, 4: (4, 2)
            default: (4, 3)
            }
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
                codes[tapColumns] = try ExecutableCode(
                    Self.assemble(layout, pixels: plan.pixels, blocks: plan.blocks))
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
    }

    /// Computes output row `oy` of one image, clamped: `image` is that image's input (NHWC), `tapRows` the filter
    /// rows inside the input for this output row (``DepthwiseConv2DGeometry/tapRows(from:)``), `weights` the
    /// filter, `bias` the bias followed by the clamp bounds, `output` the row's first float.
    @inline(__always)
    package func convolveRow(
        _ oy: Int, image: UnsafePointer<Float>, tapRows: Range<Int>, weights: UnsafePointer<Float>,
        bias: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>
    ) {
        let g = geometry
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

    // Registers. Arguments: rdi input (advanced per pixel group), rsi weights, rdx bias (+ clamp), rcx output
    // (advanced per pixel group), r8 pixels left, r9 filter rows. rax: channel offset in bytes; r10 / r11: input /
    // weights of the current filter row and channel block; rbx: filter rows left (callee-saved, so pushed).
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

    private static func assemble(_ layout: Layout, pixels: Int, blocks: Int) throws(MachineCodeError) -> [UInt8] {
        var a = X86Assembler()
        a.push(rowsLeft)
        // Pixel groups: the main size while enough pixels are left, then single pixels.
        let groupSizes = pixels == 1 ? [1] : [pixels, 1]
        for group in groupSizes {
            let loop = a.makeLabel()
            let next = a.makeLabel()
            a.bind(loop)
            a.cmp(pixelsLeft, Int32(group))
            a.jl(next)
            // Single pixels carry more channel blocks so that each still has 4 accumulators.
            emitPixelGroup(&a, layout, pixels: group, blocks: group == 1 ? 4 : blocks)
            a.add(input, Int32(group * layout.pixelStride))
            a.add(output, Int32(group * layout.channels * 4))
            a.sub(pixelsLeft, Int32(group))
            a.jmp(loop)
            a.bind(next)
        }
        a.pop(rowsLeft)
        a.vzeroupper()
        a.ret()
        return try a.finish()
    }

    /// All channels of `pixels` consecutive output pixels: a runtime loop over steps of `blocks` channel blocks,
    /// then one step over the blocks that are left.
    private static func emitPixelGroup(_ a: inout X86Assembler, _ layout: Layout, pixels: Int, blocks: Int) {
        let blockCount = layout.channels / 8
        let fullSteps = blockCount / blocks
        let rest = blockCount % blocks
        a.mov(channelOffset, 0)
        if fullSteps > 0 {
            let channelLoop = a.makeLabel()
            a.bind(channelLoop)
            emitStep(&a, layout, pixels: pixels, blocks: blocks)
            a.add(channelOffset, Int32(blocks * 32))
            if fullSteps > 1 {
                a.cmp(channelOffset, Int32(fullSteps * blocks * 32))
                a.jl(channelLoop)
            }
        }
        if rest > 0 { emitStep(&a, layout, pixels: pixels, blocks: rest) }
    }

    /// `blocks` channel blocks (at `channelOffset`) of `pixels` pixels: bias, all filter rows, clamp, store.
    private static func emitStep(_ a: inout X86Assembler, _ layout: Layout, pixels: Int, blocks: Int) {
        // ymm0 … ymm(pixels · blocks − 1) accumulate (pixel-major); the next `blocks` registers hold weights.
        func accumulator(_ p: Int, _ b: Int) -> YMM { YMM(p * blocks + b) }
        let firstWeight = pixels * blocks
        precondition(firstWeight + max(blocks, 2) <= 16, "DepthwiseConv2DMachineCode: too many registers")
        for p in 0..<pixels {
            for b in 0..<blocks {
                a.vmovups(accumulator(p, b), Memory(bias, index: channelOffset, scale: 1, Int32(b * 32)))
            }
        }
        let rowLoop = a.makeLabel()
        let rowsDone = a.makeLabel()
        a.lea(rowInput, Memory(input, index: channelOffset, scale: 1))
        a.lea(rowWeights, Memory(weights, index: channelOffset, scale: 1))
        a.mov(rowsLeft, tapRows)
        a.test(rowsLeft, rowsLeft)
        a.jz(rowsDone)
        a.bind(rowLoop)
        for kx in 0..<layout.tapColumns {
            for b in 0..<blocks {
                let weight = YMM(firstWeight + b)
                a.vmovups(weight, Memory(rowWeights, Int32(kx * layout.channels * 4 + b * 32)))
                for p in 0..<pixels {
                    a.vfmadd231ps(
                        accumulator(p, b), weight,
                        Memory(rowInput, Int32(p * layout.pixelStride + kx * layout.tapStride + b * 32)))
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
                a.vmovups(Memory(output, index: channelOffset, scale: 1, Int32(p * layout.channels * 4 + b * 32)), sum)
            }
        }
    }
}
