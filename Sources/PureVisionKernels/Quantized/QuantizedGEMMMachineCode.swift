/// Generated x86-64 AVX2 code for the GEMM of ``QuantizedConv2DKernel``: a tile of ``tileRows`` gathered int16 rows
/// (`paddedDepth` values each) times every output channel's int16 weights, accumulated exactly in int32 and
/// requantized in registers (ruy's or XNNPACK's rounding, output zero point, clamp) before a single store of 8-bit
/// results.
///
/// Weights are packed for `vpmaddwd` in channel panels of 16 (the last one 8 when at most 8 channels remain): per
/// pair of k, the panel's channels in order, each as `(w[k], w[k + 1])`, so one 256-bit multiply-add of a broadcast
/// input pair gives 8 channels' int32 partial sums in natural order. A tile of 6 rows × 16 channels keeps 12
/// accumulators in registers.
///
/// Accumulators start at the bias; requantization is ``RequantizationCode`` with ruy's rounding (TFLite) or XNNPACK's.
///
/// The panels can be cut into ``parts``, runs of whole panels as even in channels as panels allow, each with its own
/// code, so that threads share a layer with fewer pixels than channels by columns; the parts write disjoint channels
/// of the same output rows.
///
/// Arguments: `rdi` the gathered rows (row stride `2 · paddedDepth` bytes), `rsi` the tile's first output pixel
/// (row stride `outputChannels` bytes; a part adds its first channel), `rdx` a 6 × 16-byte buffer that receives the
/// last panel when it is not exactly the remaining channels (``tailChannels`` of each of its rows are valid; the
/// caller copies them).
final class QuantizedGEMMCode: @unchecked Sendable {
    /// Output pixels per call.
    static let tileRows = 6
    /// The first output channel of the panel written to the tail buffer.
    let tailStart: Int
    /// Channels per row in the tail buffer (0: every panel stores straight to the output).
    let tailChannels: Int
    /// The output channels each part writes, in order; the last part's include the tail panel's.
    let parts: [Range<Int>]
    private let weights: UnsafeMutableRawPointer
    private let constants: UnsafeMutableRawPointer
    private let codes: [ExecutableCode]

    /// Panels of `outputChannels` channels: 16 wide, the last one 8 when at most 8 channels remain.
    static func panelWidths(outputChannels outputs: Int) -> [Int] {
        let remainder = outputs % 16
        return [Int](repeating: 16, count: outputs / 16) + (remainder == 0 ? [] : [remainder <= 8 ? 8 : 16])
    }

    /// Generates the code, or returns nil when a multiplier needs a left shift or a right shift above 31, or the
    /// sizes exceed 32-bit displacements.
    /// - Parameters:
    ///   - weight: weight `k` of output channel `o`, `(o, k)`, for `k < depth` (within ±255).
    ///   - biasTerms: per output channel, added to the accumulator before requantization.
    ///   - flip: XORed into every output byte (0x80 for uint8 activations computed as int8).
    ///   - partCount: how many ``parts`` to cut the panels into (at most the number of panels).
    init?(
        depth: Int, paddedDepth: Int, outputChannels: Int, weight: (Int, Int) -> Int16, biasTerms: UnsafePointer<Int32>,
        multipliers: (Int) -> QuantizedMultiplier, rounding: RequantizationRounding = .ruy, zeroPoint: Int32,
        range: QuantizedRange, flip: UInt8, partCount: Int = 1
    ) {
        let outputs = outputChannels
        let widths = Self.panelWidths(outputChannels: outputs)
        guard outputs > 0, paddedDepth % 2 == 0, paddedDepth > 0, paddedDepth * 2 * Self.tileRows < 1 << 24,
            outputs * Self.tileRows < 1 << 24, (1...widths.count).contains(partCount)
        else { return nil }
        guard rounding == .ruy || rounding == .xnnpack else { return nil }
        for o in 0..<outputs where rounding == .ruy {
            let m = multipliers(o)
            guard m.shift <= 0, m.shift >= -31 else { return nil }
        }
        let full = outputs / 16
        let remainder = outputs % 16
        tailStart = full * 16
        tailChannels = remainder == 0 || remainder == 8 ? 0 : remainder
        let pairs = paddedDepth / 2

        let weightBytes = widths.reduce(0, +) * paddedDepth * 2
        let weights = UnsafeMutableRawPointer.allocate(byteCount: max(64, weightBytes), alignment: 64)
        let w = weights.bindMemory(to: Int16.self, capacity: weightBytes / 2)
        var index = 0
        var channel = 0
        for width in widths {
            for pair in 0..<pairs {
                for lane in 0..<width {
                    for half in 0..<2 {
                        let (o, k) = (channel + lane, 2 * pair + half)
                        w[index] = o < outputs && k < depth ? weight(o, k) : 0
                        index += 1
                    }
                }
            }
            channel += width
        }

        // Constants: ``RequantizationCode``'s globals, then per panel its six per-lane arrays, `width` int32 each.
        let globalsBytes = RequantizationCode.globalsBytes
        let constantBytes = globalsBytes + widths.reduce(0, +) * 24
        let constants = UnsafeMutableRawPointer.allocate(byteCount: constantBytes, alignment: 64)
        constants.initializeMemory(as: UInt8.self, repeating: 0, count: constantBytes)
        RequantizationCode.writeGlobals(constants, zeroPoint: zeroPoint, range: range, flip: flip)
        var offset = globalsBytes
        channel = 0
        for width in widths {
            for lane in 0..<width where channel + lane < outputs {
                let o = channel + lane
                let start = offset
                RequantizationCode.laneConstants(
                    lane: lane, bias: biasTerms[o], multiplier: multipliers(o), rounding: rounding
                ) { array, lane, value in
                    constants.storeBytes(of: value, toByteOffset: start + (array * width + lane) * 4, as: Int32.self)
                }
            }
            offset += width * 24
            channel += width
        }

        let rowStride = Int32(paddedDepth * 2)
        var codes: [ExecutableCode] = []
        var parts: [Range<Int>] = []
        var firstPanel = 0
        do {
            for part in 0..<partCount {
                // Panels up to the part's share of the channels, at least one, leaving one for each later part (the
                // last part's share is every channel, so it takes all that remain).
                let target = outputs * (part + 1) / partCount
                let firstChannel = firstPanel * 16
                var endPanel = firstPanel + 1
                while endPanel < widths.count - (partCount - 1 - part) && min(outputs, (endPanel + 1) * 16) <= target {
                    endPanel += 1
                }
                // Only the last panel can be narrower than 16 or the tail, so the panels before it are full.
                let fullPanels = min(endPanel, full) - firstPanel
                var a = X86Assembler()
                a.mov(.rax, Int(bitPattern: constants))
                a.mov(.r11, Int(bitPattern: constants + globalsBytes + firstChannel * 24))
                a.mov(.r9, Int(bitPattern: weights + firstChannel * paddedDepth * 2))
                if firstChannel > 0 { a.add(.rsi, Int32(firstChannel)) }
                if fullPanels > 0 {
                    let panelLoop = a.makeLabel()
                    a.mov(.r10, fullPanels)
                    a.bind(panelLoop)
                    Self.panel(
                        &a, width: 16, pairs: pairs, rowStride: rowStride, outputs: outputs, direct: true, flip: flip,
                        rounding: rounding)
                    a.dec(.r10)
                    a.jnz(panelLoop)
                }
                if endPanel > full, let last = widths.last {
                    Self.panel(
                        &a, width: last, pairs: pairs, rowStride: rowStride, outputs: outputs,
                        direct: tailChannels == 0, flip: flip, rounding: rounding)
                }
                a.vzeroupper()
                a.ret()
                codes.append(try ExecutableCode(a.finish()))
                parts.append(firstChannel..<min(outputs, endPanel * 16))
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

    /// Runs one tile through part `part`: `rows` holds ``tileRows`` gathered rows, `output` (the tile's first output
    /// pixel) receives the part's channels of ``tileRows`` output rows but the tail panel's, `tail` (96 bytes) the
    /// tail panel's.
    @inline(__always)
    func run(part: Int = 0, rows: UnsafeRawPointer, output: UnsafeMutableRawPointer, tail: UnsafeMutableRawPointer) {
        codes[part].entry(Int(bitPattern: rows), Int(bitPattern: output), Int(bitPattern: tail), 0, 0, 0)
    }
}
