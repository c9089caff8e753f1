#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

/// Per-channel requantization of 4 accumulators at a time in SSE2-friendly SIMD, bit-identical to
/// `QuantizedMultiplier.apply` / `applyRuy` / `applyXNNPACK` followed by the output zero point and the clamp.
///
/// Fixed-point roundings: the doubling high multiply is done on magnitudes with 32 × 32 → 64-bit unsigned lane
/// products (`|a| · m`, then `(p + 2^30 − s) >> 31` and the sign put back, which is gemmlowp's nudge and truncation),
/// the final rounding shift with per-lane shift counts; only the shift rounding(s) the kernel's channels use are
/// computed. XNNPACK's rounding: one float multiplication, the clamp in float, and the round to nearest even done by
/// adding 1.5 · 2^23 (exact for the clamped range). Channel groups are laid out as the kernels accumulate them (see
/// ``Layout``).
struct RequantizationLanes {
    /// Which channels group `g` holds, lane j = 0…3.
    enum Layout {
        /// Channels `8·(g/2) + 2j + (g%2)`: the even and odd lanes of each block of 8 (the GEMM's accumulators).
        case evenOdd
        /// Channels `4·g + j`, in order.
        case inOrder
    }

    struct Group {
        var multiplierEven: SIMD2<UInt64>
        var multiplierOdd: SIMD2<UInt64>
        var shift: SIMD4<Int32>
        var roundUp: SIMD4<Int32>
        var mask: SIMD4<Int32>
        var halfMask: SIMD4<Int32>
        /// −1 where the lane rounds its final shift toward +∞ (ruy), 0 where away from zero (gemmlowp).
        var ruy: SIMD4<Int32>
        /// The lanes' `floatScale`s (XNNPACK's rounding).
        var scale: SIMD4<Float>
    }

    /// Which rounding the lanes compute.
    enum Form {
        /// Every channel rounds as ruy.
        case ruy
        /// Every channel rounds as gemmlowp (`.double`).
        case gemmlowp
        /// Some channels round as ruy, the others as gemmlowp (`.channelBlocksOf8`).
        case mixed
        /// Every channel rounds as XNNPACK (float scale).
        case float
    }

    let groups: UnsafeMutablePointer<Group>
    let groupCount: Int
    let form: Form
    let zeroPoint: SIMD4<Int32>
    let lower: SIMD4<Int32>
    let upper: SIMD4<Int32>
    /// The clamp in float before the zero point is added: `lower − zeroPoint`, `upper − zeroPoint`.
    let floatLower: SIMD4<Float>
    let floatUpper: SIMD4<Float>
    /// False when some channel's fixed-point multiplier needs a left shift (≥ 1), or when XNNPACK's rounding is mixed
    /// with the fixed-point ones: callers then use the scalar path.
    let isUsable: Bool

    /// Lays out `channels` multipliers (and their roundings) in groups of 4, blocks of 8 (two groups) at a time.
    init(
        multipliers: (Int) -> QuantizedMultiplier, rounding: (Int) -> RequantizationRounding, channels: Int,
        zeroPoint: Int32, range: QuantizedRange, layout: Layout = .evenOdd
    ) {
        let blocks = (channels + 7) / 8
        groupCount = blocks * 2
        groups = .allocate(capacity: groupCount)
        var roundings = Set<RequantizationRounding>()
        var leftShift = false
        for g in 0..<groupCount {
            var m = [UInt64](repeating: 0, count: 4)
            var shift = SIMD4<Int32>()
            var roundUp = SIMD4<Int32>()
            var mask = SIMD4<Int32>()
            var ruy = SIMD4<Int32>()
            var scale = SIMD4<Float>()
            for j in 0..<4 {
                let channel = layout == .evenOdd ? 8 * (g / 2) + 2 * j + g % 2 : 4 * g + j
                guard channel < channels else { continue }
                let q = multipliers(channel)
                let channelRounding = rounding(channel)
                roundings.insert(channelRounding == .channelBlocksOf8 ? .double : channelRounding)
                if q.shift > 0 && channelRounding != .xnnpack { leftShift = true }
                let right = Int32(max(0, -q.shift))
                m[j] = UInt64(UInt32(bitPattern: q.multiplier))
                shift[j] = right
                roundUp[j] = right == 0 ? 0 : Int32(truncatingIfNeeded: Int64(1) << Int64(right - 1))
                mask[j] = Int32(truncatingIfNeeded: (Int64(1) << Int64(right)) - 1)
                ruy[j] = channelRounding == .ruy ? -1 : 0
                scale[j] = q.floatScale
            }
            (groups + g).initialize(
                to: Group(
                    multiplierEven: SIMD2(m[0], m[2]), multiplierOdd: SIMD2(m[1], m[3]), shift: shift,
                    roundUp: roundUp, mask: mask, halfMask: mask &>> 1, ruy: ruy, scale: scale))
        }
        switch roundings {
        case [.xnnpack]: form = .float
        case [.ruy]: form = .ruy
        case [.double]: form = .gemmlowp
        default: form = .mixed
        }
        isUsable = roundings.contains(.xnnpack) ? roundings.count == 1 : !leftShift
        self.zeroPoint = SIMD4(repeating: zeroPoint)
        lower = SIMD4(repeating: range.lower)
        upper = SIMD4(repeating: range.upper)
        floatLower = SIMD4(repeating: Float(range.lower - zeroPoint))
        floatUpper = SIMD4(repeating: Float(range.upper - zeroPoint))
    }

    func deallocate() { groups.deallocate() }

    /// The clamped, zero-point-offset requantization of `acc` for channel group `group`.
    @inline(__always)
    func apply(_ acc: SIMD4<Int32>, group: Int) -> SIMD4<Int32> {
        let p = groups[group]
        if form == .float {
            let scaled = Self.clamp(SIMD4<Float>(acc) * p.scale, lower: floatLower, upper: floatUpper)
            // |scaled| ≤ 2^22: adding 1.5 · 2^23 rounds it to an integer (ties to even), held in the low mantissa
            // bits above the sum's bit pattern for 1.5 · 2^23 (0x4B40_0000).
            let magic = SIMD4<Float>(repeating: 12_582_912)
            return unsafeBitCast(scaled + magic, to: SIMD4<Int32>.self) &- 0x4B40_0000 &+ zeroPoint
        }
        let sign = acc &>> 31
        let magnitude = unsafeBitCast((acc ^ sign) &- sign, to: SIMD2<UInt64>.self)
        let signBits = unsafeBitCast(sign, to: SIMD2<UInt64>.self)
        let low32: UInt64 = 0xFFFF_FFFF
        let productEven = (magnitude & low32) &* (p.multiplierEven & low32)
        let productOdd = (magnitude &>> 32) &* (p.multiplierOdd & low32)
        let highEven = (productEven &+ (1 << 30) &- (signBits & 1)) &>> 31
        let highOdd = (productOdd &+ (1 << 30) &- ((signBits &>> 32) & 1)) &>> 31
        let magnitudeHigh = unsafeBitCast((highEven & low32) | (highOdd &<< 32), to: SIMD4<Int32>.self)
        let high = (magnitudeHigh ^ sign) &- sign
        var value: SIMD4<Int32>
        switch form {
        case .ruy: value = Self.ruyShift(high, p)
        case .gemmlowp: value = Self.gemmlowpShift(high, p)
        case .mixed, .float:  // .float returned above
            value = (Self.ruyShift(high, p) & p.ruy) | (Self.gemmlowpShift(high, p) & ~p.ruy)
        }
        value &+= zeroPoint
        let below = (value &- lower) &>> 31
        value = (value & ~below) | (lower & below)
        let above = (upper &- value) &>> 31
        return (value & ~above) | (upper & above)
    }

    /// What ``apply(_:_:)`` needs of block `block`, read once for a loop over the block's pixels (the kernels'
    /// stores through their output pointers would otherwise make every iteration read it again).
    struct BlockConstants {
        /// The block: groups `2 · block` and `2 · block + 1`.
        let block: Int
        /// XNNPACK's rounding: the channels' scales, the clamp in float, and the zero point minus the rounding
        /// constant's bit pattern.
        let scale: SIMD8<Float>
        let lower: SIMD8<Float>
        let upper: SIMD8<Float>
        let offset: SIMD8<Int32>
    }

    /// Block `block`'s constants for ``apply(_:_:)``.
    @inline(__always)
    func constants(block: Int) -> BlockConstants {
        BlockConstants(
            block: block,
            scale: SIMD8(lowHalf: groups[2 &* block].scale, highHalf: groups[2 &* block &+ 1].scale),
            lower: SIMD8(lowHalf: floatLower, highHalf: floatLower),
            upper: SIMD8(lowHalf: floatUpper, highHalf: floatUpper),
            offset: SIMD8(lowHalf: zeroPoint, highHalf: zeroPoint) &- 0x4B40_0000)
    }

    /// ``apply(_:group:)`` on the two groups of a block at once: `acc`'s low half is group `2 · block`, its high half
    /// group `2 · block + 1`. XNNPACK's rounding runs on all 8 lanes together (one 256-bit vector where the target
    /// has AVX, two NEON or SSE2 registers elsewhere); the fixed-point roundings go a half at a time.
    @inline(__always)
    func apply(_ acc: SIMD8<Int32>, _ constants: BlockConstants) -> SIMD8<Int32> {
        let (lowGroup, highGroup) = (2 &* constants.block, 2 &* constants.block &+ 1)
        #if arch(x86_64) && canImport(CPureVisionTargetFeatures.AVX2)
            guard form == .float else {
                return SIMD8(
                    lowHalf: apply(acc.lowHalf, group: lowGroup), highHalf: apply(acc.highHalf, group: highGroup))
            }
            let scaled = Self.clamp(
                SIMD8<Float>(acc) * constants.scale, lower: constants.lower, upper: constants.upper)
            // As in `apply(_:group:)`: adding 1.5 · 2^23 rounds to an integer, ties to even; `offset` takes the
            // constant's bit pattern back off and adds the zero point.
            let magic = SIMD8<Float>(repeating: 12_582_912)
            return unsafeBitCast(scaled + magic, to: SIMD8<Int32>.self) &+ constants.offset
        #else
            // Without 256-bit vectors, the 4-lane form: it compiles to tighter SSE2 and NEON code than 8 lanes split.
            return SIMD8(lowHalf: apply(acc.lowHalf, group: lowGroup), highHalf: apply(acc.highHalf, group: highGroup))
        #endif
    }

    /// ruy's final shift, `(h + 2^(s−1)) >> s`, computed as `(h >> s)` + bit `s − 1` of `h` so it cannot overflow.
    @inline(__always)
    private static func ruyShift(_ high: SIMD4<Int32>, _ p: Group) -> SIMD4<Int32> {
        (high &>> p.shift) &- ((0 &- (high & p.roundUp)) &>> 31)
    }

    /// gemmlowp's final shift, `(h >> s) + (remainder > threshold)`: ties away from zero.
    @inline(__always)
    private static func gemmlowpShift(_ high: SIMD4<Int32>, _ p: Group) -> SIMD4<Int32> {
        (high &>> p.shift) &- ((p.halfMask &- (high &>> 31) &- (high & p.mask)) &>> 31)
    }

    /// `min(max(v, lower), upper)` per lane (no NaN reaches it). The standard library's `pointwiseMin` / `clamped` are
    /// not lowered to single instructions and cost a function call per use.
    @inline(__always)
    static func clamp(_ v: SIMD4<Float>, lower: SIMD4<Float>, upper: SIMD4<Float>) -> SIMD4<Float> {
        #if arch(x86_64)
            _mm_min_ps(_mm_max_ps(v, lower), upper)  // __m128 is SIMD4<Float>
        #else
            SIMD4(
                min(max(v[0], lower[0]), upper[0]), min(max(v[1], lower[1]), upper[1]),
                min(max(v[2], lower[2]), upper[2]), min(max(v[3], lower[3]), upper[3]))
        #endif
    }

    #if arch(x86_64) && canImport(CPureVisionTargetFeatures.AVX2)
        /// ``clamp(_:lower:upper:)`` on 8 lanes: one `vmaxps` / `vminps` pair (only the AVX2 build requantizes 8 lanes
        /// at once).
        @inline(__always)
        static func clamp(_ v: SIMD8<Float>, lower: SIMD8<Float>, upper: SIMD8<Float>) -> SIMD8<Float> {
            _mm256_min_ps(_mm256_max_ps(v, lower), upper)  // __m256 is SIMD8<Float>
        }
    #endif

    /// Stores 8 channels given in order (already within the int8 range) as 8 bytes with the sign bit XORed with
    /// `flip`.
    @inline(__always)
    static func storeInOrder(
        _ low: SIMD4<Int32>, _ high: SIMD4<Int32>, flip: UInt8, to out: UnsafeMutablePointer<Int8>
    ) {
        #if arch(x86_64)
            let words = _mm_packs_epi32(unsafeBitCast(low, to: __m128i.self), unsafeBitCast(high, to: __m128i.self))
            let bytes = _mm_xor_si128(_mm_packs_epi16(words, words), _mm_set1_epi8(Int8(bitPattern: flip)))
            UnsafeMutableRawPointer(out).storeBytes(of: bytes[0], as: Int64.self)
        #else
            let values = SIMD8<Int32>(lowHalf: low, highHalf: high)
            let bytes = SIMD8<UInt8>(truncatingIfNeeded: values) ^ SIMD8(repeating: flip)
            UnsafeMutableRawPointer(out).storeBytes(of: bytes, as: SIMD8<UInt8>.self)
        #endif
    }

    /// ``storeInOrder(_:_:flip:to:)`` of one 8-lane vector.
    @inline(__always)
    static func storeInOrder(_ values: SIMD8<Int32>, flip: UInt8, to out: UnsafeMutablePointer<Int8>) {
        storeInOrder(values.lowHalf, values.highHalf, flip: flip, to: out)
    }

    /// Stores the 8 channels of a block, given as its even and odd lanes (already within the int8 range), as 8 bytes
    /// with the sign bit XORed with `flip`.
    @inline(__always)
    static func storeBlock(even: SIMD4<Int32>, odd: SIMD4<Int32>, flip: UInt8, to out: UnsafeMutablePointer<Int8>) {
        #if arch(x86_64)
            // Interleave the lanes back into channel order, then saturating packs (exact: within −128…127).
            let e = unsafeBitCast(even, to: __m128i.self)
            let o = unsafeBitCast(odd, to: __m128i.self)
            let words = _mm_packs_epi32(_mm_unpacklo_epi32(e, o), _mm_unpackhi_epi32(e, o))
            let bytes = _mm_xor_si128(_mm_packs_epi16(words, words), _mm_set1_epi8(Int8(bitPattern: flip)))
            UnsafeMutableRawPointer(out).storeBytes(of: bytes[0], as: Int64.self)
        #else
            let values = SIMD8<Int32>(even[0], odd[0], even[1], odd[1], even[2], odd[2], even[3], odd[3])
            let bytes = SIMD8<UInt8>(truncatingIfNeeded: values) ^ SIMD8(repeating: flip)
            UnsafeMutableRawPointer(out).storeBytes(of: bytes, as: SIMD8<UInt8>.self)
        #endif
    }
}
