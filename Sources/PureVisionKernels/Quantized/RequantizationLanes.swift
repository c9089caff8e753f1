/// Per-channel requantization of 4 accumulators at a time in SSE2-friendly integer SIMD, bit-identical to
/// `QuantizedMultiplier.apply` / `applyRuy` for multipliers without a left shift.
///
/// The doubling high multiply is done on magnitudes with 32 × 32 → 64-bit unsigned lane products (`|a| · m`, then
/// `(p + 2^30 − s) >> 31` and the sign put back, which is gemmlowp's nudge and truncation), the final rounding
/// shift with per-lane shift counts; the result gets the output zero point and the clamp. Channel groups are laid
/// out as the kernels accumulate them: group `g` holds channels `8·(g/2) + 2j + (g%2)`, j = 0…3 (even and odd lanes
/// of each block of 8).
struct RequantizationLanes {
    struct Group {
        var multiplierEven: SIMD2<UInt64>
        var multiplierOdd: SIMD2<UInt64>
        var shift: SIMD4<Int32>
        var roundUp: SIMD4<Int32>
        var mask: SIMD4<Int32>
        var halfMask: SIMD4<Int32>
        /// −1 where the lane rounds its final shift toward +∞ (ruy), 0 where away from zero (gemmlowp).
        var ruy: SIMD4<Int32>
    }

    let groups: UnsafeMutablePointer<Group>
    let groupCount: Int
    let zeroPoint: SIMD4<Int32>
    let lower: SIMD4<Int32>
    let upper: SIMD4<Int32>
    /// False when some channel's multiplier needs a left shift (≥ 1), or rounds as XNNPACK does (a float
    /// multiplication these integer lanes do not do): callers then use the scalar path.
    let isUsable: Bool

    /// Lays out `channels` multipliers (and their roundings) in blocks of 8 as even / odd groups of 4.
    init(
        multipliers: (Int) -> QuantizedMultiplier, rounding: (Int) -> RequantizationRounding, channels: Int,
        zeroPoint: Int32, range: QuantizedRange
    ) {
        let blocks = (channels + 7) / 8
        groupCount = blocks * 2
        groups = .allocate(capacity: groupCount)
        var usable = true
        for g in 0..<groupCount {
            var m = [UInt64](repeating: 0, count: 4)
            var shift = SIMD4<Int32>()
            var roundUp = SIMD4<Int32>()
            var mask = SIMD4<Int32>()
            var ruy = SIMD4<Int32>()
            for j in 0..<4 {
                let channel = 8 * (g / 2) + 2 * j + g % 2
                guard channel < channels else { continue }
                let q = multipliers(channel)
                if q.shift > 0 || rounding(channel) == .xnnpack { usable = false }
                let right = Int32(max(0, -q.shift))
                m[j] = UInt64(UInt32(bitPattern: q.multiplier))
                shift[j] = right
                roundUp[j] = right == 0 ? 0 : Int32(truncatingIfNeeded: Int64(1) << Int64(right - 1))
                mask[j] = Int32(truncatingIfNeeded: (Int64(1) << Int64(right)) - 1)
                ruy[j] = rounding(channel) == .ruy ? -1 : 0
            }
            (groups + g).initialize(
                to: Group(
                    multiplierEven: SIMD2(m[0], m[2]), multiplierOdd: SIMD2(m[1], m[3]), shift: shift,
                    roundUp: roundUp, mask: mask, halfMask: mask &>> 1, ruy: ruy))
        }
        isUsable = usable
        self.zeroPoint = SIMD4(repeating: zeroPoint)
        lower = SIMD4(repeating: range.lower)
        upper = SIMD4(repeating: range.upper)
    }

    func deallocate() { groups.deallocate() }

    /// The clamped, zero-point-offset requantization of `acc` for channel group `group`.
    @inline(__always)
    func apply(_ acc: SIMD4<Int32>, group: Int) -> SIMD4<Int32> {
        let p = groups[group]
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
        // Final shift: ruy lanes (h + 2^(s−1)) >> s, computed as (h >> s) + bit s−1 of h so it cannot overflow;
        // gemmlowp lanes (h >> s) + (remainder > threshold).
        let ruyResult = (high &>> p.shift) &- ((0 &- (high & p.roundUp)) &>> 31)
        let highSign = high &>> 31
        let remainder = high & p.mask
        let threshold = p.halfMask &- highSign
        let gemmlowpResult = (high &>> p.shift) &- ((threshold &- remainder) &>> 31)
        var value = ((ruyResult & p.ruy) | (gemmlowpResult & ~p.ruy)) &+ zeroPoint
        let below = (value &- lower) &>> 31
        value = (value & ~below) | (lower & below)
        let above = (upper &- value) &>> 31
        return (value & ~above) | (upper & above)
    }
}
