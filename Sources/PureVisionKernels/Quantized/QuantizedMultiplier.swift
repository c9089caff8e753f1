/// A real multiplier in TFLite's fixed-point form: `real ≈ multiplier · 2^(shift − 31)`, `multiplier` in
/// [2^30, 2^31) (or 0 for a zero real).
///
/// `init(_:)` is TFLite's `QuantizeMultiplier`: the double's significand from `frexp`, rounded half away from zero to
/// 31 bits, with the same corner cases (a significand that rounds up to 2^31 halves and bumps the shift; shifts below
/// −31 flush to zero; shifts above 30 saturate).
public struct QuantizedMultiplier: Sendable, Hashable {
    /// The Q0.31 significand.
    public var multiplier: Int32
    /// The power-of-two exponent (positive: left shift).
    public var shift: Int
    /// The same real as XNNPACK holds it, a float computed in float from the tensors' scales (0 when not given);
    /// ``RequantizationRounding/xnnpack`` multiplies by it.
    public var floatScale: Float = 0

    /// The multiplier and shift as given.
    public init(multiplier: Int32, shift: Int) {
        self.multiplier = multiplier
        self.shift = shift
    }

    /// TFLite's `QuantizeMultiplier(real)` together with XNNPACK's float form of the same real.
    public init(_ real: Double, floatScale: Float) {
        self.init(real)
        self.floatScale = floatScale
    }

    /// `x · floatScale` the way XNNPACK's int8 kernels requantize ("fp32" requantization): the accumulator converted
    /// to float, one float multiplication, rounded to the nearest integer with ties to even (the result is then
    /// clamped to the output range by the caller; here it is only kept within ±2^20).
    @inline(__always)
    public func applyXNNPACK(_ x: Int32) -> Int32 {
        let scaled = (Float(x) * floatScale).rounded(.toNearestOrEven)
        return Int32(min(max(scaled, -1_048_576), 1_048_576))
    }

    /// TFLite's `QuantizeMultiplier(double)`.
    public init(_ real: Double) {
        guard real != 0, real.isFinite else {
            self.init(multiplier: 0, shift: 0)
            return
        }
        // frexp: real = q · 2^shift with |q| in [0.5, 1).
        var shift = Int(real.exponent) + 1
        let q = real.significand / 2 * (real < 0 ? -1 : 1)
        var fixed = Int64((q * 2_147_483_648.0).rounded(.toNearestOrAwayFromZero))
        if fixed == 1 << 31 {
            fixed /= 2
            shift += 1
        }
        if shift < -31 {
            shift = 0
            fixed = 0
        }
        if shift > 30 {
            shift = 30
            fixed = (1 << 31) - 1
        }
        self.init(multiplier: Int32(fixed), shift: shift)
    }

    /// `x · real` the way TFLite's `MultiplyByQuantizedMultiplier` does it (common.h, double rounding): a saturating
    /// rounding doubling high multiply, then a rounding right shift (ties away from zero).
    @inline(__always)
    public func apply(_ x: Int32) -> Int32 {
        let left = shift > 0 ? shift : 0
        let right = shift > 0 ? 0 : -shift
        return FixedPoint.roundingDivideByPOT(
            FixedPoint.saturatingRoundingDoublingHighMul(x &<< Int32(left), multiplier), right)
    }

    /// `x · real` the way ruy's x86 int8 kernels (the GEMM behind TFLite's CONV_2D and FULLY_CONNECTED) do it: the
    /// same rounding doubling high multiply, then a rounding right shift with ties toward +∞
    /// (`(v + 2^(s−1)) >> s`) instead of away from zero. Measured against LiteRT 2.3's builtin kernels.
    @inline(__always)
    public func applyRuy(_ x: Int32) -> Int32 {
        let left = shift > 0 ? shift : 0
        let right = shift > 0 ? 0 : -shift
        let high = FixedPoint.saturatingRoundingDoublingHighMul(x &<< Int32(left), multiplier)
        if right == 0 { return high }
        return Int32(truncatingIfNeeded: (Int64(high) &+ (Int64(1) &<< Int64(right - 1))) &>> Int64(right))
    }
}

/// gemmlowp's fixed-point primitives as TFLite uses them.
public enum FixedPoint {
    /// `(a · b · 2 + 2^31) >> 32` with round-half-away-from-zero nudging, saturating the one overflow case.
    @inline(__always)
    public static func saturatingRoundingDoublingHighMul(_ a: Int32, _ b: Int32) -> Int32 {
        if a == b && a == .min { return .max }
        let ab = Int64(a) &* Int64(b)
        let nudge: Int64 = ab >= 0 ? (1 << 30) : (1 - (1 << 30))
        return Int32(truncatingIfNeeded: (ab &+ nudge) / (1 << 31))
    }

    /// `x / 2^exponent`, rounding to nearest with ties away from zero.
    @inline(__always)
    public static func roundingDivideByPOT(_ x: Int32, _ exponent: Int) -> Int32 {
        let mask: Int32 = exponent >= 31 ? .max : (1 &<< Int32(exponent)) &- 1
        let remainder = x & mask
        let threshold = (mask &>> 1) &+ (x < 0 ? 1 : 0)
        return (x &>> Int32(exponent)) &+ (remainder > threshold ? 1 : 0)
    }

    /// The int16 form of `saturatingRoundingDoublingHighMul`.
    @inline(__always)
    public static func saturatingRoundingDoublingHighMul(_ a: Int16, _ b: Int16) -> Int16 {
        if a == b && a == .min { return .max }
        let ab = Int32(a) * Int32(b)
        let nudge: Int32 = ab >= 0 ? (1 << 14) : (1 - (1 << 14))
        return Int16(truncatingIfNeeded: (ab + nudge) / (1 << 15))
    }

    /// The int16 doubling high multiply without rounding (truncating division), as TFLite's HARD_SWISH uses it.
    @inline(__always)
    public static func saturatingDoublingHighMul(_ a: Int16, _ b: Int16) -> Int16 {
        if a == b && a == .min { return .max }
        return Int16(truncatingIfNeeded: (Int32(a) * Int32(b)) / (1 << 15))
    }

    /// The int16 form of `roundingDivideByPOT`.
    @inline(__always)
    public static func roundingDivideByPOT(_ x: Int16, _ exponent: Int) -> Int16 {
        Int16(truncatingIfNeeded: roundingDivideByPOT(Int32(x), exponent))
    }

    /// `x · 2^amount`, saturated to int16.
    @inline(__always)
    public static func saturatingLeftShift(_ x: Int16, _ amount: Int) -> Int16 {
        let value = Int32(x) << Int32(amount)
        return Int16(clamping: value)
    }
}

/// The integer clamp of a quantized output: the type's range narrowed by a fused activation, the way TFLite's
/// `CalculateActivationRangeQuantized` computes it (`zeroPoint + round(bound / scale)`).
public struct QuantizedRange: Sendable, Hashable {
    /// The smallest value written.
    public var lower: Int32
    /// The largest value written.
    public var upper: Int32

    /// A range as given.
    public init(lower: Int32, upper: Int32) {
        self.lower = lower
        self.upper = upper
    }

    /// The range of `type` (`.int8`: −128…127, `.uint8`: 0…255) narrowed by the fused activation's float bounds
    /// `activationLower…activationUpper` (infinite for none) on an output of `scale` and `zeroPoint`.
    public init(isUnsigned: Bool, scale: Float, zeroPoint: Int32, activationLower: Float, activationUpper: Float) {
        let typeLower: Int32 = isUnsigned ? 0 : -128
        let typeUpper: Int32 = isUnsigned ? 255 : 127
        func quantize(_ value: Float) -> Int32 {
            zeroPoint &+ Int32(saturating: (value / scale).rounded(.toNearestOrAwayFromZero))
        }
        lower = activationLower.isFinite ? max(typeLower, quantize(activationLower)) : typeLower
        upper = activationUpper.isFinite ? min(typeUpper, quantize(activationUpper)) : typeUpper
    }

    /// `value` clamped into the range.
    @inline(__always)
    public func clamp(_ value: Int32) -> Int32 { min(max(value, lower), upper) }
}

extension Int32 {
    /// `value` truncated toward zero and saturated to the int32 range (NaN gives 0): float-to-integer conversions of
    /// model-supplied scales must not trap.
    @inlinable
    public init(saturating value: Float) {
        if value.isNaN {
            self = 0
        } else if value >= 2_147_483_520 {
            self = .max
        } else if value <= -2_147_483_648 {
            self = .min
        } else {
            self = Int32(value)
        }
    }
}
