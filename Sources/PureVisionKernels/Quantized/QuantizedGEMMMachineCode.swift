/// Generated x86-64 code for the GEMM of ``QuantizedConv2DKernel``: a tile of ``tileRows`` gathered rows times every
/// output channel's weights, accumulated exactly in int32 and requantized in registers (ruy's or XNNPACK's rounding,
/// output zero point, clamp) before a single store of 8-bit results.
///
/// With ``GeneratedInstructionSet/avx2`` the rows are int16 (`paddedDepth` values each) and the weights are packed
/// for `vpmaddwd` in channel panels of 16 (the last one 8 when at most 8 channels remain): per pair of k, the panel's
/// channels in order, each as `(w[k], w[k + 1])`, so one 256-bit multiply-add of a broadcast input pair gives 8
/// channels' int32 partial sums in natural order. A tile of 6 rows × 16 channels keeps 12 accumulators in registers.
///
/// With ``GeneratedInstructionSet/avx512`` the rows are the stored activation bytes (``rowBytes`` each, a multiple of
/// 4; a pointwise layer's input itself), XORed in registers with ``rowXOR`` into `x + 128` for the unsigned operand,
/// and the weights int8, packed in panels of 32 channels (the last one 16 when at most 16 remain): per group of four
/// k, each channel's `(w[k], …, w[k + 3])`, so one `vpdpbusd` of a broadcast group of four input bytes adds 16
/// channels' partial sums; the accumulators start at `bias − 128 · Σ w`, which takes the offset back out. A tile of
/// 6 rows × 32 channels keeps 12 zmm accumulators, requantized sixteen lanes at a time with XNNPACK's rounding or
/// in two 8-lane halves by the AVX2 code with ruy's, and a panel's channels past the last are masked off its stores,
/// so there is never a tail buffer.
///
/// Accumulators start at the bias; requantization is ``RequantizationCode`` with ruy's rounding (TFLite) or XNNPACK's.
///
/// The panels can be cut into ``parts``, runs of whole panels as even in channels as panels allow, each with its own
/// code, so that threads share a layer with fewer pixels than channels by columns; the parts write disjoint channels
/// of the same output rows.
///
/// Arguments: `rdi` the gathered rows (row stride ``rowBytes``), `rsi` the tile's first output pixel
/// (row stride `outputChannels` bytes; a part adds its first channel), `rdx` a 6 × 16-byte buffer that receives the
/// last panel when it is not exactly the remaining channels (``tailChannels`` of each of its rows are valid; the
/// caller copies them).
final class QuantizedGEMMCode: @unchecked Sendable {
    /// Output pixels per call.
    static let tileRows = 6
    /// The instructions the code multiplies with (``GeneratedInstructionSet/avx2`` when VNNI was asked for but is
    /// not available or a weight does not fit int8).
    let instructions: GeneratedInstructionSet
    /// Bytes per gathered row: `2 · paddedDepth` int16 values for AVX2, the depth rounded up to 4 bytes for VNNI.
    let rowBytes: Int
    /// VNNI: what the code XORs into every row byte to make it `x + 128` (`flip ^ 0x80`: 0x80 for int8 activations,
    /// 0 for uint8 ones, which are that already).
    let rowXOR: UInt8
    /// The first output channel of the panel written to the tail buffer.
    let tailStart: Int
    /// Channels per row in the tail buffer (0: every panel stores straight to the output).
    let tailChannels: Int
    /// The output channels each part writes, in order; the last part's include the tail panel's.
    let parts: [Range<Int>]
    private let weights: UnsafeMutableRawPointer
    private let constants: UnsafeMutableRawPointer
    private let codes: [ExecutableCode]

    /// Whether code asked for `instructions` multiplies with VNNI when its weights fit int8: the CPU must have it.
    static func allowsVNNI(_ instructions: GeneratedInstructionSet) -> Bool {
        instructions == .avx512 && HostCPU.supportsGeneratedAVX512VNNI
    }

    /// Panels of `outputChannels` channels: `unit` (16 for AVX2, 32 for VNNI) wide, the last one `unit / 2` when at
    /// most that many channels remain.
    static func panelWidths(outputChannels outputs: Int, unit: Int = 16) -> [Int] {
        let remainder = outputs % unit
        return [Int](repeating: unit, count: outputs / unit)
            + (remainder == 0 ? [] : [remainder <= unit / 2 ? unit / 2 : unit])
    }

    /// Generates the code, or returns nil when a multiplier needs a left shift or a right shift above 31, or the
    /// sizes exceed 32-bit displacements.
    /// - Parameters:
    ///   - weight: weight `k` of output channel `o`, `(o, k)`, for `k < depth` (within ±255).
    ///   - biasTerms: per output channel, added to the accumulator before requantization.
    ///   - flip: XORed into every output byte (0x80 for uint8 activations computed as int8).
    ///   - partCount: how many ``parts`` to cut the panels into (at most the number of panels).
    ///   - instructions: what to multiply with; VNNI falls back to AVX2 where it cannot run.
    init?(
        depth: Int, paddedDepth: Int, outputChannels: Int, weight: (Int, Int) -> Int16, biasTerms: UnsafePointer<Int32>,
        multipliers: (Int) -> QuantizedMultiplier, rounding: RequantizationRounding = .ruy, zeroPoint: Int32,
        range: QuantizedRange, flip: UInt8, partCount: Int = 1, instructions: GeneratedInstructionSet = .avx2
    ) {
        let outputs = outputChannels
        let vnni =
            Self.allowsVNNI(instructions)
            && (0..<outputs).allSatisfy { o in (0..<depth).allSatisfy { (-128...127).contains(weight(o, $0)) } }
        self.instructions = vnni ? .avx512 : .avx2
        let unit = vnni ? 32 : 16
        let widths = Self.panelWidths(outputChannels: outputs, unit: unit)
        // k per multiply-add step, and the padded depth the rows and weights hold.
        let step = vnni ? 4 : 2
        let stepDepth = vnni ? (depth + 3) & ~3 : paddedDepth
        rowBytes = vnni ? stepDepth : 2 * paddedDepth
        let rowXOR = flip ^ 0x80
        self.rowXOR = rowXOR
        guard outputs > 0, paddedDepth % 2 == 0, paddedDepth >= depth, depth > 0, rowBytes * Self.tileRows < 1 << 24,
            outputs * Self.tileRows < 1 << 24, (1...widths.count).contains(partCount)
        else { return nil }
        guard rounding == .ruy || rounding == .xnnpack else { return nil }
        for o in 0..<outputs where rounding == .ruy {
            let m = multipliers(o)
            guard m.shift <= 0, m.shift >= -31 else { return nil }
        }
        let full = outputs / unit
        let remainder = outputs % unit
        tailStart = full * unit
        let tailCount = vnni || remainder == 0 || remainder == unit / 2 ? 0 : remainder
        tailChannels = tailCount
        let steps = stepDepth / step

        // Weights: per panel, per step of k, the panel's channels in order, each as its `step` weights.
        let weightBytes = widths.reduce(0, +) * stepDepth * (vnni ? 1 : 2)
        let weights = UnsafeMutableRawPointer.allocate(byteCount: max(64, weightBytes), alignment: 64)
        var index = 0
        var channel = 0
        for width in widths {
            for s in 0..<steps {
                for lane in 0..<width {
                    for i in 0..<step {
                        let (o, k) = (channel + lane, step * s + i)
                        let w = o < outputs && k < depth ? weight(o, k) : 0
                        if vnni {
                            weights.storeBytes(of: Int8(w), toByteOffset: index, as: Int8.self)
                            index += 1
                        } else {
                            weights.storeBytes(of: w, toByteOffset: index, as: Int16.self)
                            index += 2
                        }
                    }
                }
            }
            channel += width
        }

        // Constants: ``RequantizationCode``'s globals, then per panel its six per-lane arrays, `width` int32 each.
        let globalsBytes = RequantizationCode.globalsBytes
        let constantBytes = globalsBytes + widths.reduce(0, +) * 24
        // Then the row XOR in four bytes, for VNNI's broadcast.
        let constants = UnsafeMutableRawPointer.allocate(byteCount: constantBytes + 4, alignment: 64)
        constants.initializeMemory(as: UInt8.self, repeating: 0, count: constantBytes)
        constants.storeBytes(of: UInt32(rowXOR) &* 0x0101_0101, toByteOffset: constantBytes, as: UInt32.self)
        RequantizationCode.writeGlobals(constants, zeroPoint: zeroPoint, range: range, flip: flip)
        var offset = globalsBytes
        channel = 0
        for width in widths {
            for lane in 0..<width where channel + lane < outputs {
                let o = channel + lane
                let start = offset
                // VNNI multiplies `x + 128`: the bias takes back the 128 · Σ w that adds (wrapping, as the sums do).
                var bias = biasTerms[o]
                if vnni { for k in 0..<depth { bias &-= 128 &* Int32(weight(o, k)) } }
                RequantizationCode.laneConstants(
                    lane: lane, bias: bias, multiplier: multipliers(o), rounding: rounding
                ) { array, lane, value in
                    constants.storeBytes(of: value, toByteOffset: start + (array * width + lane) * 4, as: Int32.self)
                }
            }
            offset += width * 24
            channel += width
        }

        let rowStride = Int32(rowBytes)
        var codes: [ExecutableCode] = []
        var parts: [Range<Int>] = []
        var firstPanel = 0
        do {
            for part in 0..<partCount {
                // Panels up to the part's share of the channels, at least one, leaving one for each later part (the
                // last part's share is every channel, so it takes all that remain).
                let target = outputs * (part + 1) / partCount
                let firstChannel = firstPanel * unit
                var endPanel = firstPanel + 1
                while endPanel < widths.count - (partCount - 1 - part)
                    && min(outputs, (endPanel + 1) * unit) <= target
                {
                    endPanel += 1
                }
                // Only the last panel can be narrower than `unit` or the tail, so the panels before it are full.
                let fullPanels = min(endPanel, full) - firstPanel
                var a = X86Assembler()
                a.mov(.rax, Int(bitPattern: constants))
                a.mov(.r11, Int(bitPattern: constants + globalsBytes + firstChannel * 24))
                a.mov(.r9, Int(bitPattern: weights + firstChannel * stepDepth * (vnni ? 1 : 2)))
                if firstChannel > 0 { a.add(.rsi, Int32(firstChannel)) }
                func emitPanel(width: Int, channels: Int, isLast: Bool) {
                    if vnni {
                        Self.vnniPanel(
                            &a, width: width, channels: channels, groups: steps, rowStride: rowStride,
                            outputs: outputs, flip: flip, rounding: rounding,
                            rowXOR: rowXOR == 0 ? nil : Int32(constantBytes))
                    } else {
                        Self.panel(
                            &a, width: width, pairs: steps, rowStride: rowStride, outputs: outputs,
                            direct: !isLast || tailCount == 0, flip: flip, rounding: rounding)
                    }
                }
                if fullPanels > 0 {
                    let panelLoop = a.makeLabel()
                    a.mov(.r10, fullPanels)
                    a.bind(panelLoop)
                    emitPanel(width: unit, channels: unit, isLast: false)
                    a.dec(.r10)
                    a.jnz(panelLoop)
                }
                if endPanel > full, let last = widths.last {
                    emitPanel(width: last, channels: outputs - full * unit, isLast: true)
                }
                a.vzeroupper()
                a.ret()
                codes.append(try ExecutableCode(a.finish()))
                parts.append(firstChannel..<min(outputs, endPanel * unit))
                firstPanel = endPanel
            }
        } catch {
            weights.deallocate()
            constants.deallocate()
            return nil
        }
        self.codes = codes
        self.parts = parts
        self.weights = weights
        self.constants = constants
    }

    deinit {
        weights.deallocate()
        constants.deallocate()
    }

    /// One panel of `width` (8 or 16) channels for all tile rows: `r9` (weights) and `r11` (its constants) move to
    /// the next panel, `rsi` too when the panel is stored to the output (`direct`), else it goes to `rdx`.
    private static func panel(
        _ a: inout X86Assembler, width: Int, pairs: Int, rowStride: Int32, outputs: Int, direct: Bool, flip: UInt8,
        rounding: RequantizationRounding
    ) {
        let vectors = width / 8
        let rows = tileRows
        func acc(_ r: Int, _ v: Int) -> YMM { YMM(r * vectors + v) }
        let (broadcast, temp) = (YMM(14), YMM(15))
        // Accumulators start at the bias (array 0 of the panel's constants).
        for r in 0..<rows { for v in 0..<vectors { a.vmovups(acc(r, v), Memory(.r11, Int32(32 * v))) } }
        a.mov(.r8, .rdi)
        a.mov(.rcx, pairs)
        let kLoop = a.makeLabel()
        a.bind(kLoop)
        for v in 0..<vectors { a.vmovups(YMM(12 + v), Memory(.r9, Int32(32 * v))) }
        for r in 0..<rows {
            a.vpbroadcastd(broadcast, Memory(.r8, Int32(r) * rowStride))
            for v in 0..<vectors {
                a.vpmaddwd(temp, broadcast, YMM(12 + v))
                a.vpaddd(acc(r, v), acc(r, v), temp)
            }
        }
        a.add(.r8, 4)
        a.add(.r9, Int32(width * 4))
        a.dec(.rcx)
        a.jnz(kLoop)

        let zero = broadcast
        a.vxorps(zero, zero, zero)
        let arrayBytes = Int32(width * 4)
        for r in 0..<rows {
            for v in 0..<vectors {
                let lane = Int32(32 * v)
                // The ruy and XNNPACK roundings use one temporary at most; the other two are never touched.
                RequantizationCode.emit(
                    &a, acc(r, v), temps: (temp, temp, temp), zero: zero, rounding: rounding, addsBias: false,
                    globals: .rax, array: { Memory(.r11, Int32($0) * arrayBytes + lane) })
            }
            let x = acc(r, 0)
            a.vpackssdw(x, x, acc(r, vectors - 1))
            a.vpermq(x, x, order: 0xD8)
            a.vextracti128(temp, x, half: 1)
            a.vpacksswb128(x, x, temp)
            if flip != 0 { a.vpxor128(x, x, Memory(.rax, 128)) }
            let destination = direct ? Memory(.rsi, Int32(r * outputs)) : Memory(.rdx, Int32(r * 16))
            if vectors == 2 { a.vmovupsLow128(destination, x) } else { a.vmovlps(destination, x) }
        }
        a.add(.r11, 6 * arrayBytes)
        if direct { a.add(.rsi, Int32(width)) }
    }

    /// One VNNI panel of `width` (16 or 32) channels, the first `channels` of which exist, for all tile rows: `r9`
    /// (weights), `r11` (its constants) and `rsi` move to the next panel. `rowXOR`: the offset from `rax` of the
    /// four row-XOR bytes, nil when they are 0.
    private static func vnniPanel(
        _ a: inout X86Assembler, width: Int, channels: Int, groups: Int, rowStride: Int32, outputs: Int, flip: UInt8,
        rounding: RequantizationRounding, rowXOR: Int32?
    ) {
        let vectors = width / 16
        let rows = tileRows
        func acc(_ r: Int, _ v: Int) -> ZMM { ZMM(r * vectors + v) }
        // zmm12/13 hold the group's weights in the loop and the accumulators' upper halves after it.
        func upper(_ v: Int) -> ZMM { ZMM(12 + v) }
        let (broadcast, temp) = (ZMM(14), YMM(15))
        // Accumulators start at the bias (array 0 of the panel's constants).
        for r in 0..<rows { for v in 0..<vectors { a.vmovdqu32(acc(r, v), Memory(.r11, Int32(64 * v))) } }
        a.mov(.r8, .rdi)
        a.mov(.rcx, groups)
        // zmm15 (the epilogue's temporary) holds the row XOR through the k loop.
        let xor = ZMM(15)
        if let rowXOR { a.vpbroadcastd(xor, Memory(.rax, rowXOR)) }
        let kLoop = a.makeLabel()
        a.bind(kLoop)
        for v in 0..<vectors { a.vmovdqu32(upper(v), Memory(.r9, Int32(64 * v))) }
        for r in 0..<rows {
            a.vpbroadcastd(broadcast, Memory(.r8, Int32(r) * rowStride))
            if rowXOR != nil { a.vpxord(broadcast, broadcast, xor) }
            for v in 0..<vectors { a.vpdpbusd(acc(r, v), broadcast, upper(v)) }
        }
        a.add(.r8, 4)
        a.add(.r9, Int32(width * 4))
        a.dec(.rcx)
        a.jnz(kLoop)

        // A partial last 16-channel store is byte-masked: k1 = its channels.
        let partial = channels % 16
        if partial != 0 {
            a.mov(.rcx, (1 << partial) - 1)
            a.kmovw(OpMask(1), .rcx)
        }
        let arrayBytes = Int32(width * 4)
        /// Stores the sixteen bytes in `x`'s low 128 bits as channels `16v…` of row `r`, masked when partial.
        func store(_ x: YMM, row r: Int, vector v: Int) {
            if flip != 0 { a.vpxor128(x, x, Memory(.rax, 128)) }
            let destination = Memory(.rsi, Int32(r * outputs + 16 * v))
            if channels - 16 * v >= 16 {
                a.vmovupsLow128(destination, x)
            } else {
                a.vmovdqu8(destination, mask: OpMask(1), x)
            }
        }
        if rounding == .xnnpack {
            // All sixteen lanes at once, then narrowed to bytes in order (the clamp keeps them within int8).
            for r in 0..<rows {
                for v in 0..<vectors where 16 * v < channels {
                    let x = acc(r, v)
                    RequantizationCode.emitXNNPACK(
                        &a, x, scales: Memory(.r11, arrayBytes + Int32(64 * v)), globals: .rax)
                    a.vpmovsdb(x.ymm, x)
                    store(x.ymm, row: r, vector: v)
                }
            }
            a.add(.r11, 6 * arrayBytes)
            a.add(.rsi, Int32(width))
            return
        }
        let zero = broadcast.ymm
        a.vxorps(zero, zero, zero)
        for r in 0..<rows {
            for v in 0..<vectors { a.vextracti64x4(upper(v).ymm, acc(r, v), half: 1) }
            for v in 0..<vectors {
                for (half, x) in [(0, acc(r, v).ymm), (1, upper(v).ymm)] {
                    let lane = Int32(64 * v + 32 * half)
                    RequantizationCode.emit(
                        &a, x, temps: (temp, temp, temp), zero: zero, rounding: rounding, addsBias: false,
                        globals: .rax, array: { Memory(.r11, Int32($0) * arrayBytes + lane) })
                }
            }
            for v in 0..<vectors where 16 * v < channels {
                let x = acc(r, v).ymm
                a.vpackssdw(x, x, upper(v).ymm)
                a.vpermq(x, x, order: 0xD8)
                a.vextracti128(temp, x, half: 1)
                a.vpacksswb128(x, x, temp)
                store(x, row: r, vector: v)
            }
        }
        a.add(.r11, 6 * arrayBytes)
        a.add(.rsi, Int32(width))
    }

    /// Runs one tile through part `part`: `rows` holds ``tileRows`` gathered rows, `output` (the tile's first output
    /// pixel) receives the part's channels of ``tileRows`` output rows but the tail panel's, `tail` (96 bytes) the
    /// tail panel's.
    @inline(__always)
    func run(part: Int = 0, rows: UnsafeRawPointer, output: UnsafeMutableRawPointer, tail: UnsafeMutableRawPointer) {
        codes[part].entry(Int(bitPattern: rows), Int(bitPattern: output), Int(bitPattern: tail), 0, 0, 0)
    }
}
