/// IEEE 754 binary16 conversion done in integer arithmetic, so it behaves the same on every platform
/// (Swift's `Float16` type is unavailable on macOS x86_64).
public enum Float16Bits {
    /// Converts binary16 bits to the exactly equal `Float` (every half value is representable in single precision).
    @inlinable
    public static func toFloat(_ h: UInt16) -> Float {
        let sign = UInt32(h & 0x8000) << 16
        let exponent = UInt32(h >> 10) & 0x1F
        var mantissa = UInt32(h & 0x3FF)
        if exponent == 0x1F {  // infinity or NaN keep their payload
            return Float(bitPattern: sign | 0x7F80_0000 | (mantissa << 13))
        }
        if exponent == 0 {
            if mantissa == 0 { return Float(bitPattern: sign) }
            // Subnormal half: normalise the mantissa into an ordinary single-precision number.
            var e: UInt32 = 127 - 15 + 1
            while mantissa & 0x400 == 0 {
                mantissa <<= 1
                e -= 1
            }
            mantissa &= 0x3FF
            return Float(bitPattern: sign | (e << 23) | (mantissa << 13))
        }
        return Float(bitPattern: sign | ((exponent + 127 - 15) << 23) | (mantissa << 13))
    }
}
