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

    /// The per-lane constants of one lane: `store(array, value)` for arrays 0…5.
    static func laneConstants(
        bias: Int32, multiplier: QuantizedMultiplier, rounding: RequantizationRounding, store: (Int, Int32) -> Void
    ) {
        let right = Int32(-multiplier.shift)
        store(0, bias)
        if rounding == .xnnpack {
            store(1, Int32(bitPattern: multiplier.floatScale.bitPattern))
            return
        }
        store(1, multiplier.multiplier)
        let mask = Int32(truncatingIfNeeded: (Int64(1) << Int64(right)) - 1)
        store(3, rounding == .ruy ? (right == 0 ? 0 : Int32(1) << (right - 1)) : mask)
        store(4, right)
        store(5, mask >> 1)
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
/// output channels in groups of 16 (and one of 8), each tap a 256-bit `vpmaddwd` of 16 staged int16 inputs
/// `x − zeroPoint` with the tap's weights spread over two vectors, the even channels' weights in the even int16 lanes
/// (zeros between) and the odd channels' in the odd lanes, so the int32 products of even and odd channels come out
/// exact in two accumulators. Requantization runs in registers (``RequantizationCode``), then the two accumulators
/// are interleaved back to channel order and packed to bytes.
///
/// The input rows an output row reads are staged by the caller with the padding as zeros, so no tap is skipped:
/// staged row `ky` at `rdi + ky · stagedRowBytes` (`QuantizedDepthwiseConv2DKernel.stagedLayout`), pixel `ox · strideWidth + kx · dilationWidth` of it at
/// `channels · 2` bytes per pixel. `rsi` is the output row. Channels from ``channels`` on (fewer than 8) are left to
/// the caller.
final class QuantizedDepthwiseCode: @unchecked Sendable {
    /// Output channels the code writes (a multiple of 8).
    let channels: Int
    private let weights: UnsafeMutableRawPointer
    private let constants: UnsafeMutableRawPointer
    private let code: ExecutableCode

    /// Generates the code, or returns nil when the depth multiplier is not 1, fewer than 8 channels, a multiplier
    /// needs a left shift (or a right shift above 31), or sizes exceed 32-bit displacements.
    /// - Parameters:
    ///   - weight: weight `(tap, channel)`, tap = `ky · kernelWidth + kx` (within ±255).
    ///   - rounding: the requantization of every channel the code writes (`.ruy`, `.double` or `.xnnpack`).
    ///   - flip: XORed into every output byte.
    init?(
        geometry g: DepthwiseConv2DGeometry, weight: (Int, Int) -> Int16, bias: (Int) -> Int32,
        multipliers: (Int) -> QuantizedMultiplier, rounding: RequantizationRounding, zeroPoint: Int32,
        range: QuantizedRange, flip: UInt8
    ) {
        let cout = g.outputChannels
        guard g.depthMultiplier == 1, cout >= 8 else { return nil }
        let channels = cout / 8 * 8
        for c in 0..<channels {
            let m = multipliers(c)
            guard rounding == .xnnpack || (m.shift <= 0 && m.shift >= -31) else { return nil }
        }
        let stagedRowBytes = QuantizedDepthwiseConv2DKernel.stagedLayout(g).rowBytes
        let taps = g.kernelHeight * g.kernelWidth
        guard stagedRowBytes * g.kernelHeight < 1 << 28, taps * 64 < 1 << 20 else { return nil }
        self.channels = channels
        let groups = (channels + 15) / 16

        let weightBytes = groups * taps * 64
        let weights = UnsafeMutableRawPointer.allocate(byteCount: weightBytes, alignment: 64)
        weights.initializeMemory(as: UInt8.self, repeating: 0, count: weightBytes)
        for c in 0..<channels {
            let (group, lane) = (c / 16, c % 16)
            for t in 0..<taps {
                // Even channel 2j at int16 lane 2j of the even vector; odd channel 2j + 1 at lane 2j + 1 of the odd one.
                let offset = (group * taps + t) * 64 + (lane & 1) * 32 + lane * 2
                weights.storeBytes(of: weight(t, c), toByteOffset: offset, as: Int16.self)
            }
        }
        let vectorBytes = 192
        let constantBytes = RequantizationCode.globalsBytes + groups * 2 * vectorBytes
        let constants = UnsafeMutableRawPointer.allocate(byteCount: constantBytes, alignment: 64)
        constants.initializeMemory(as: UInt8.self, repeating: 0, count: constantBytes)
        RequantizationCode.writeGlobals(constants, zeroPoint: zeroPoint, range: range, flip: flip)
        for c in 0..<channels {
            // Vector 2·group + parity; lane j of it is channel 16·group + 2j + parity.
            let vector = RequantizationCode.globalsBytes + ((c / 16) * 2 + c % 2) * vectorBytes
            let lane = (c % 16) / 2
            RequantizationCode.laneConstants(bias: bias(c), multiplier: multipliers(c), rounding: rounding) {
                array, value in
                constants.storeBytes(of: value, toByteOffset: vector + array * 32 + lane * 4, as: Int32.self)
            }
            if lane % 2 == 1 {
                constants.storeBytes(
                    of: multipliers(c).multiplier, toByteOffset: vector + 2 * 32 + (lane - 1) * 4, as: Int32.self)
            }
        }

        var a = X86Assembler()
        let (even, odd, x, t, high, zero) = (YMM(0), YMM(1), YMM(2), YMM(3), YMM(4), YMM(5))
        let temps = (YMM(3), YMM(6), YMM(7))
        a.mov(.rax, Int(bitPattern: constants))
        a.vxorps(zero, zero, zero)
        a.mov(.rcx, g.outputWidth)
        let pixelLoop = a.makeLabel()
        a.bind(pixelLoop)
        a.mov(.r9, Int(bitPattern: weights))
        a.mov(.r11, Int(bitPattern: constants + RequantizationCode.globalsBytes))
        a.mov(.rdx, .rdi)
        func group(stores bytes: Int) {
            a.vmovups(even, Memory(.r11, 0))
            a.vmovups(odd, Memory(.r11, Int32(vectorBytes)))
            for ky in 0..<g.kernelHeight {
                for kx in 0..<g.kernelWidth {
                    let tap = ky * g.kernelWidth + kx
                    a.vmovups(x, Memory(.rdx, Int32(ky * stagedRowBytes + kx * g.dilationWidth * cout * 2)))
                    a.vpmaddwd(t, x, Memory(.r9, Int32(tap * 64)))
                    a.vpaddd(even, even, t)
                    a.vpmaddwd(t, x, Memory(.r9, Int32(tap * 64 + 32)))
                    a.vpaddd(odd, odd, t)
                }
            }
            for (accumulator, vector) in [(even, 0), (odd, 1)] {
                RequantizationCode.emit(
                    &a, accumulator, temps: temps, zero: zero, rounding: rounding, addsBias: false, globals: .rax,
                    array: { Memory(.r11, Int32(vector * vectorBytes + $0 * 32)) })
            }
            a.vpunpckhdq(high, even, odd)
            a.vpunpckldq(even, even, odd)
            a.vpackssdw(even, even, high)
            a.vextracti128(t, even, half: 1)
            a.vpacksswb128(even, even, t)
            if flip != 0 { a.vpxor128(even, even, Memory(.rax, 128)) }
            if bytes == 16 { a.vmovupsLow128(Memory(.rsi), even) } else { a.vmovlps(Memory(.rsi), even) }
            a.add(.rsi, Int32(bytes))
            a.add(.rdx, 32)
            a.add(.r9, Int32(taps * 64))
            a.add(.r11, Int32(2 * vectorBytes))
        }
        if channels >= 16 {
            let groupLoop = a.makeLabel()
            a.mov(.r10, channels / 16)
            a.bind(groupLoop)
            group(stores: 16)
            a.dec(.r10)
            a.jnz(groupLoop)
        }
        if channels % 16 == 8 { group(stores: 8) }
        if cout > channels { a.add(.rsi, Int32(cout - channels)) }
        a.add(.rdi, Int32(g.strideWidth * cout * 2))
        a.dec(.rcx)
        a.jnz(pixelLoop)
        a.vzeroupper()
        a.ret()
        do {
            code = try ExecutableCode(a.finish())
        } catch {
            weights.deallocate()
            constants.deallocate()
            return nil
        }
        self.weights = weights
        self.constants = constants
    }

    deinit {
        weights.deallocate()
        constants.deallocate()
    }

    /// Computes one output row's first ``channels`` channels of every pixel from the staged rows.
    @inline(__always)
    func run(staged: UnsafeRawPointer, output: UnsafeMutableRawPointer) {
        code.entry(Int(bitPattern: staged), Int(bitPattern: output), 0, 0, 0, 0)
    }
}
