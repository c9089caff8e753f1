/// Requantization of 8 int32 lanes in registers, shared by the generated int8 kernels.
///
/// Fixed-point roundings (`.ruy`, `.double`): per lane, with `a` the accumulator (plus the bias when `addsBias`), `m`
/// the channel's multiplier and `s` its right shift (never a left shift): `h = (a · m + 2^30) >> 31` as a 64-bit
/// arithmetic shift, which equals gemmlowp's nudged, truncating doubling high multiply for both signs (for
/// p = a · m < 0, trunc((p + 1 − 2^30) / 2^31) is the ceiling, which is floor((p + 2^30) / 2^31)); the result lies in
/// bits 31…62, so logical shifts extract it. Then the final shift: ruy's `(h >> s) + bit (s − 1) of h` (ties toward
/// +∞), or gemmlowp's `(h >> s) + (remainder > threshold)` (ties away from zero). `RequantizationLanes.apply`
/// computes the same on magnitudes. XNNPACK's rounding (`.xnnpack`): `a` converted to float, multiplied by the
/// channel's float scale, capped at `upper − zeroPoint` (so the conversion cannot overflow), converted back with
/// ties to even. Then, for all, the output zero point and the clamp.
///
/// Per-lane constants are six arrays of 8 int32 at `array(i)`: 0 bias, 1 multiplier (`.xnnpack`: the float scale's
/// bits), 2 the odd lanes' multipliers moved to the even lanes, 3 `2^(s−1)` (ruy; 0 when s = 0) or `2^s − 1`
/// (gemmlowp), 4 s, 5 `(2^s − 1) >> 1` (gemmlowp only). Global constants at `globals`: 2^30 as four int64 (offset
/// 0), then 8 × int32 zero point (32), lower (64) and upper (96) bound, 16 bytes XORed into the packed output (128),
/// and 8 × float `upper − zeroPoint` (160).
enum RequantizationCode {
    /// Bytes of the global constants.
    static let globalsBytes = 192

    /// Writes the global constants at `globals` (``globalsBytes`` bytes).
    static func writeGlobals(_ globals: UnsafeMutableRawPointer, zeroPoint: Int32, range: QuantizedRange, flip: UInt8) {
        globals.initializeMemory(as: UInt8.self, repeating: 0, count: globalsBytes)
        for j in 0..<4 { globals.storeBytes(of: Int64(1) << 30, toByteOffset: 8 * j, as: Int64.self) }
        for j in 0..<8 {
            globals.storeBytes(of: zeroPoint, toByteOffset: 32 + 4 * j, as: Int32.self)
            globals.storeBytes(of: range.lower, toByteOffset: 64 + 4 * j, as: Int32.self)
            globals.storeBytes(of: range.upper, toByteOffset: 96 + 4 * j, as: Int32.self)
            globals.storeBytes(of: Float(range.upper - zeroPoint), toByteOffset: 160 + 4 * j, as: Float.self)
        }
        for j in 0..<16 { globals.storeBytes(of: flip, toByteOffset: 128 + j, as: UInt8.self) }
    }

    /// The per-lane constants of the channel in lane `lane` of the arrays: `store(array, lane, value)` for arrays 0…5; an
    /// odd lane's multiplier also goes to lane `lane − 1` of array 2, where `vpmuldq` reads it after the odd lanes
    /// are shifted down.
    static func laneConstants(
        lane: Int, bias: Int32, multiplier: QuantizedMultiplier, rounding: RequantizationRounding,
        store: (Int, Int, Int32) -> Void
    ) {
        let right = Int32(-multiplier.shift)
        store(0, lane, bias)
        if rounding == .xnnpack {
            store(1, lane, Int32(bitPattern: multiplier.floatScale.bitPattern))
            return
        }
        store(1, lane, multiplier.multiplier)
        if lane % 2 == 1 { store(2, lane - 1, multiplier.multiplier) }
        let mask = Int32(truncatingIfNeeded: (Int64(1) << Int64(right)) - 1)
        store(3, lane, rounding == .ruy ? (right == 0 ? 0 : Int32(1) << (right - 1)) : mask)
        store(4, lane, right)
        store(5, lane, mask >> 1)
    }

    /// Emits XNNPACK's requantization of the sixteen int32 lanes of `x` in place with AVX-512, `scales` holding
    /// their sixteen float scales (array 1 of sixteen consecutive lanes): the same steps as ``emit`` with
    /// ``RequantizationRounding/xnnpack`` on two 8-lane halves, so the results are identical.
    static func emitXNNPACK(_ a: inout X86Assembler, _ x: ZMM, scales: Memory, globals: GPR) {
        a.vcvtdq2ps(x, x)
        a.vmulps(x, x, scales)
        a.vminps(x, x, broadcast: Memory(globals, 160))
        a.vcvtps2dq(x, x)
        a.vpaddd(x, x, broadcast: Memory(globals, 32))
        a.vpmaxsd(x, x, broadcast: Memory(globals, 64))
        a.vpminsd(x, x, broadcast: Memory(globals, 96))
    }

    /// Emits the requantization of `x` in place. `temps` are clobbered; `zero` must hold zeros.
    static func emit(
        _ a: inout X86Assembler, _ x: YMM, temps: (YMM, YMM, YMM), zero: YMM, rounding: RequantizationRounding,
        addsBias: Bool, globals: GPR, array: (Int) -> Memory
    ) {
        let (t, u, v) = temps
        if addsBias { a.vpaddd(x, x, array(0)) }
        if rounding == .xnnpack {
            a.vcvtdq2ps(x, x)
            a.vmulps(x, x, array(1))
            a.vminps(x, x, Memory(globals, 160))
            a.vcvtps2dq(x, x)
        } else {
            a.vpsrlq(t, x, 32)
            a.vpmuldq(x, x, array(1))
            a.vpmuldq(t, t, array(2))
            a.vpaddq(x, x, Memory(globals, 0))
            a.vpaddq(t, t, Memory(globals, 0))
            a.vpsrlq(x, x, 31)
            a.vpsllq(t, t, 1)
            a.vpblendd(x, x, t, mask: 0xAA)
            a.vpand(t, x, array(3))
            if rounding == .ruy {
                a.vpsravd(x, x, array(4))
                a.vpcmpgtd(t, t, zero)
            } else {
                a.vpsrad(u, x, 31)
                a.vmovups(v, array(5))
                a.vpsubd(v, v, u)
                a.vpsravd(x, x, array(4))
                a.vpcmpgtd(t, t, v)
            }
            a.vpsubd(x, x, t)
        }
        a.vpaddd(x, x, Memory(globals, 32))
        a.vpmaxsd(x, x, Memory(globals, 64))
        a.vpminsd(x, x, Memory(globals, 96))
    }
}

/// Generated x86-64 AVX2 code for one output row of ``QuantizedDepthwiseConv2DKernel`` (depth multiplier 1): the
/// output channels in groups of 16 (and one of 8), each kernel column of each staged row pair a 256-bit `vpmaddwd`
/// per 8 channels of the staged int16 pairs `x − zeroPoint` with the matching weight pairs (the kernel's
/// `pairedWeights`), which gives the exact int32 sums of two taps in channel order. Requantization runs in registers
/// (``RequantizationCode``), then the accumulators are packed to bytes.
///
/// The input rows an output row reads are staged by the caller with the padding as zeros, so no tap is skipped:
/// `rdi` points to the addresses of the row's staged row pairs (`QuantizedDepthwiseConv2DKernel.StagedLayout`), pixel
/// `ox · strideWidth + kx · dilationWidth` of a pair at `channels · 4` bytes per pixel. `rsi` is the output row.
/// Channels from ``channels`` on (fewer than 8) are left to the caller.
///
/// With ``GeneratedInstructionSet/avx512`` the channels go 16 at a time in zmm registers (a last block of 8 as
/// above): each tap is one `vpdpwssd` of the staged pairs with the weights (multiply, add pairs, accumulate), the taps
/// alternating between two accumulators; the code keeps its own copy of the weights with the two 8-channel blocks of
/// each 16 side by side. XNNPACK's rounding then runs on all sixteen lanes at once, the others on two halves. Both
/// run the row group by group, each group's pixels in turn, so that the group's weights and staged values are read
/// from L1.
final class QuantizedDepthwiseCode: @unchecked Sendable {
    /// Output channels the code writes (a multiple of 8).
    let channels: Int
    /// The instructions the code uses.
    let instructions: GeneratedInstructionSet
    private let constants: UnsafeMutableRawPointer
    /// The AVX-512 code's weights, `[group of 16][pair][kx]` 64 bytes each (empty for AVX2).
    private let wideWeights: UnsafeMutableRawPointer
    private let code: ExecutableCode

    /// Generates the code, or returns nil when the depth multiplier is not 1, fewer than 8 channels, a multiplier
    /// needs a left shift (or a right shift above 31), or sizes exceed 32-bit displacements.
    /// - Parameters:
    ///   - pairedWeights: the kernel's weight pairs (`QuantizedDepthwiseConv2DKernel.pairedWeights`), read by the code
    ///     at every run: they must outlive it.
    ///   - rounding: the requantization of every channel the code writes (`.ruy`, `.double` or `.xnnpack`).
    ///   - flip: XORed into every output byte.
    init?(
        geometry depthwise: DepthwiseConv2DGeometry, pairedWeights: UnsafeRawPointer, bias: (Int) -> Int32,
        multipliers: (Int) -> QuantizedMultiplier, rounding: RequantizationRounding, zeroPoint: Int32,
        range: QuantizedRange, flip: UInt8, instructions: GeneratedInstructionSet = .avx2
    ) {
        let g = depthwise.convolution
        let cout = g.outputChannels
        guard depthwise.depthMultiplier == 1, cout >= 8 else { return nil }
        let channels = cout / 8 * 8
        let wide = instructions == .avx512 && HostCPU.supportsGeneratedAVX512VNNI && channels >= 16
        self.instructions = wide ? .avx512 : .avx2
        // Groups of 16 channels in zmm registers, then a block of 8 in ymm.
        let wideGroups = wide ? channels / 16 : 0
        for c in 0..<channels {
            let m = multipliers(c)
            guard rounding == .xnnpack || (m.shift <= 0 && m.shift >= -31) else { return nil }
        }
        let layout = QuantizedDepthwiseConv2DKernel.stagedLayout(g)
        // Weight bytes of one block of 8 channels: a 32-byte vector per row pair and kernel column.
        let blockBytes = layout.pairs * g.window.kernelWidth * 32
        guard layout.rowBytes < 1 << 28, blockBytes < 1 << 26, layout.pairs < 1 << 20,
            g.window.strideWidth * cout * 4 < 1 << 28, g.outputWidth * g.window.strideWidth * cout * 4 < 1 << 30
        else { return nil }
        self.channels = channels

        // Per-lane constants, lanes in channel order: six arrays of 8 lanes per block of 8 channels, or of 16 lanes
        // per AVX-512 group of 16.
        let vectorBytes = 192
        let wideBytes = 2 * vectorBytes
        let constantBytes =
            RequantizationCode.globalsBytes + wideGroups * wideBytes + (channels - 16 * wideGroups) / 8 * vectorBytes
        let constants = UnsafeMutableRawPointer.allocate(byteCount: constantBytes, alignment: 64)
        constants.initializeMemory(as: UInt8.self, repeating: 0, count: constantBytes)
        RequantizationCode.writeGlobals(constants, zeroPoint: zeroPoint, range: range, flip: flip)
        for c in 0..<channels {
            let inWide = c < 16 * wideGroups
            let lanes = inWide ? 16 : 8
            let vector =
                RequantizationCode.globalsBytes
                + (inWide ? (c / 16) * wideBytes : wideGroups * wideBytes + (c - 16 * wideGroups) / 8 * vectorBytes)
            RequantizationCode.laneConstants(
                lane: c % lanes, bias: bias(c), multiplier: multipliers(c), rounding: rounding
            ) { array, lane, value in
                constants.storeBytes(of: value, toByteOffset: vector + (array * lanes + lane) * 4, as: Int32.self)
            }
        }
        // The AVX-512 weights: per group, row pair and column, the 32 bytes of block 2g then those of block 2g + 1.
        // Taps of a channel group (row pairs × kernel columns), 64 bytes of AVX-512 weights each.
        let tapCount = layout.pairs * g.window.kernelWidth
        let tapBytes = tapCount * 64
        let wideWeights = UnsafeMutableRawPointer.allocate(byteCount: max(64, wideGroups * tapBytes), alignment: 64)
        for group in 0..<wideGroups {
            for tap in 0..<(layout.pairs * g.window.kernelWidth) {
                for half in 0..<2 {
                    (wideWeights + group * tapBytes + tap * 64 + half * 32).copyMemory(
                        from: pairedWeights + (2 * group + half) * blockBytes + tap * 32, byteCount: 32)
                }
            }
        }

        let weightsInRegisters = wide && tapCount <= 16
        let pairsNeighbours = weightsInRegisters && g.window.strideWidth == 1 && g.window.dilationWidth == 1
        var a = X86Assembler()
        let accumulators = [YMM(0), YMM(1)]
        let inputs = [YMM(2), YMM(8)]
        let products = [YMM(3), YMM(9)]
        let (zero, high) = (YMM(5), YMM(4))
        let temps = (YMM(3), YMM(6), YMM(7))
        a.mov(.rax, Int(bitPattern: constants))
        a.vxorps(zero, zero, zero)
        /// One AVX-512 group of 16 channels of one pixel: weights at r9, constants at r11, staged values at offset rdx
        /// of each row pair, output at rsi.
        func wideGroup() {
            let sums = (ZMM(0), ZMM(1))
            let staged = [ZMM(2), ZMM(3)]
            a.vmovdqu32(sums.0, Memory(.r11))
            a.vxorps(sums.1.ymm, sums.1.ymm, sums.1.ymm)  // a VEX write zeroes the whole zmm
            var tap = 0
            for pair in 0..<layout.pairs {
                a.mov(.r8, Memory(.rdi, Int32(8 * pair)))
                for kx in 0..<g.window.kernelWidth {
                    let input = Int32(kx * g.window.dilationWidth * cout * 4)
                    let sum = tap % 2 == 0 ? sums.0 : sums.1
                    a.vmovdqu32(staged[tap % 2], Memory(.r8, index: .rdx, scale: 1, input))
                    if weightsInRegisters {
                        a.vpdpwssd(sum, staged[tap % 2], ZMM(16 + tap))
                    } else {
                        a.vpdpwssd(sum, staged[tap % 2], Memory(.r9, Int32(tap * 64)))
                    }
                    tap += 1
                }
            }
            requantizeAndStore(sums, at: 0)
        }
        /// Two neighbouring pixels of one AVX-512 group (stride 1, no dilation, weights in registers): staged column
        /// j of a row pair feeds the first pixel's tap j and the second's tap j − 1, so a row pair of kernel width
        /// k loads k + 1 columns for both pixels instead of 2k.
        func wideGroupPixelPair() {
            let first = (ZMM(0), ZMM(1))
            let second = (ZMM(8), ZMM(9))
            let columns = [ZMM(2), ZMM(3)]
            a.vmovdqu32(first.0, Memory(.r11))
            a.vmovdqu32(second.0, Memory(.r11))
            for z in [first.1, second.1] { a.vxorps(z.ymm, z.ymm, z.ymm) }
            for pair in 0..<layout.pairs {
                a.mov(.r8, Memory(.rdi, Int32(8 * pair)))
                for j in 0...g.window.kernelWidth {
                    let column = columns[j % 2]
                    a.vmovdqu32(column, Memory(.r8, index: .rdx, scale: 1, Int32(j * cout * 4)))
                    if j < g.window.kernelWidth {
                        a.vpdpwssd(j % 2 == 0 ? first.0 : first.1, column, ZMM(16 + pair * g.window.kernelWidth + j))
                    }
                    if j > 0 {
                        a.vpdpwssd(
                            j % 2 == 0 ? second.0 : second.1, column, ZMM(16 + pair * g.window.kernelWidth + j - 1))
                    }
                }
            }
            requantizeAndStore(first, at: 0)
            requantizeAndStore(second, at: Int32(cout))
        }
        /// Adds the two halves of a group's sums, requantizes them and stores the 16 bytes at `rsi + offset`.
        func requantizeAndStore(_ sums: (ZMM, ZMM), at offset: Int32) {
            let x = sums.0
            a.vpaddd(x, x, sums.1)
            if rounding == .xnnpack {
                RequantizationCode.emitXNNPACK(&a, x, scales: Memory(.r11, 64), globals: .rax)
                a.vpmovsdb(x.ymm, x)
            } else {
                let upper = sums.1.ymm
                a.vextracti64x4(upper, x, half: 1)
                for (half, y) in [(0, x.ymm), (1, upper)] {
                    RequantizationCode.emit(
                        &a, y, temps: temps, zero: zero, rounding: rounding, addsBias: false, globals: .rax,
                        array: { Memory(.r11, Int32($0 * 64 + 32 * half)) })
                }
                a.vpackssdw(x.ymm, x.ymm, upper)
                a.vpermq(x.ymm, x.ymm, order: 0xD8)
                a.vextracti128(high, x.ymm, half: 1)
                a.vpacksswb128(x.ymm, x.ymm, high)
            }
            if flip != 0 { a.vpxor128(x.ymm, x.ymm, Memory(.rax, 128)) }
            a.vmovupsLow128(Memory(.rsi, offset), x.ymm)
        }
        /// `blocks` (1 or 2) blocks of 8 channels of one pixel, from the same registers as ``wideGroup``.
        func group(blocks: Int) {
            for b in 0..<blocks { a.vmovups(accumulators[b], Memory(.r11, Int32(b * vectorBytes))) }
            for pair in 0..<layout.pairs {
                a.mov(.r8, Memory(.rdi, Int32(8 * pair)))
                for kx in 0..<g.window.kernelWidth {
                    let input = kx * g.window.dilationWidth * cout * 4
                    let weight = (pair * g.window.kernelWidth + kx) * 32
                    for b in 0..<blocks {
                        a.vmovups(inputs[b], Memory(.r8, index: .rdx, scale: 1, Int32(input + b * 32)))
                        a.vpmaddwd(products[b], inputs[b], Memory(.r9, Int32(weight + b * blockBytes)))
                        a.vpaddd(accumulators[b], accumulators[b], products[b])
                    }
                }
            }
            for b in 0..<blocks {
                RequantizationCode.emit(
                    &a, accumulators[b], temps: temps, zero: zero, rounding: rounding, addsBias: false, globals: .rax,
                    array: { Memory(.r11, Int32(b * vectorBytes + $0 * 32)) })
            }
            // Packing interleaves 128-bit halves: quadwords (0, 1, 2, 3) hold channels 0–3, 8–11, 4–7, 12–15 (one
            // block: 0–3, 0–3, 4–7, 4–7); vpermq puts them in order before the bytes are packed.
            let first = accumulators[0]
            a.vpackssdw(first, first, accumulators[blocks - 1])
            a.vpermq(first, first, order: 0xD8)
            a.vextracti128(high, first, half: 1)
            a.vpacksswb128(first, first, high)
            if flip != 0 { a.vpxor128(first, first, Memory(.rax, 128)) }
            if blocks == 2 { a.vmovupsLow128(Memory(.rsi), first) } else { a.vmovlps(Memory(.rsi), first) }
        }
        // rdx: the byte offset of the current pixel and channel group in every staged row pair.
        a.mov(.rdx, 0)
        a.mov(.r11, Int(bitPattern: constants + RequantizationCode.globalsBytes))
        let pixelStep = Int32(g.window.strideWidth * cout * 4)
        // Channel groups outside, pixels inside: one group's weights (at most a few KB) and the staged values of
        // its 16 channels along the row stay in L1 while its pixels run; pixel-major order cycled every group's
        // weights and the whole staged rows through L2 once a pixel, and the loads bound the layer. With AVX-512 and
        // up to 16 taps (5 × 5 and smaller), the group's weights are loaded into zmm16… once, and each tap loads only
        // its staged values.
        let (rowOutputBytes, rowInputBytes) = (Int32(g.outputWidth * cout), Int32(g.outputWidth) * pixelStep)
        /// Emits a loop over `count` (at least 1) pixels running `body`, which handles `step` pixels from rsi, rdx.
        func pixelLoop(count: Int, step: Int, _ body: () -> Void) {
            a.mov(.rcx, count)
            let loop = a.makeLabel()
            a.bind(loop)
            body()
            a.add(.rsi, Int32(step * cout))
            a.add(.rdx, Int32(step) * pixelStep)
            a.dec(.rcx)
            a.jnz(loop)
        }
        if channels >= 16 {
            a.mov(.r9, Int(bitPattern: wide ? UnsafeRawPointer(wideWeights) : pairedWeights))
            let groupLoop = a.makeLabel()
            a.mov(.r10, channels / 16)
            a.bind(groupLoop)
            if wide {
                if weightsInRegisters {
                    for tap in 0..<tapCount { a.vmovdqu32(ZMM(16 + tap), Memory(.r9, Int32(tap * 64))) }
                }
                // Pixels two at a time where they can share loads, then one at a time.
                let pairedPixels = pairsNeighbours ? g.outputWidth / 2 : 0
                if pairedPixels > 0 { pixelLoop(count: pairedPixels, step: 2, wideGroupPixelPair) }
                if g.outputWidth > 2 * pairedPixels {
                    pixelLoop(count: g.outputWidth - 2 * pairedPixels, step: 1, wideGroup)
                }
            } else {
                pixelLoop(count: g.outputWidth, step: 1) { group(blocks: 2) }
            }
            a.sub(.rsi, rowOutputBytes - 16)
            a.sub(.rdx, rowInputBytes - 64)
            a.add(.r9, Int32(wide ? tapBytes : 2 * blockBytes))
            a.add(.r11, Int32(wide ? wideBytes : 2 * vectorBytes))
            a.dec(.r10)
            a.jnz(groupLoop)
        }
        if channels % 16 == 8 {
            a.mov(.r9, Int(bitPattern: pairedWeights + (channels / 8 - 1) * blockBytes))
            pixelLoop(count: g.outputWidth, step: 1) { group(blocks: 1) }
        }
        a.vzeroupper()
        a.ret()
        do {
            code = try ExecutableCode(a.finish())
        } catch {
            constants.deallocate()
            wideWeights.deallocate()
            return nil
        }
        self.constants = constants
        self.wideWeights = wideWeights
    }

    deinit {
        constants.deallocate()
        wideWeights.deallocate()
    }

    /// Computes one output row's first ``channels`` channels of every pixel from its staged row pairs.
    @inline(__always)
    func run(pairRows: UnsafePointer<UnsafeRawPointer>, output: UnsafeMutableRawPointer) {
        code.entry(Int(bitPattern: pairRows), Int(bitPattern: output), 0, 0, 0, 0)
    }
}
