/// The 8-bit integer types quantized tensors are stored in.
public protocol QuantizedElement: FixedWidthInteger & Sendable {}
extension Int8: QuantizedElement {}
extension UInt8: QuantizedElement {}

/// Integer kernels for quantized tensors, bit-exact with TFLite's builtin kernels.
public enum Quantized {}

extension Quantized {
    /// QUANTIZE float32 → int8 / uint8: `clamp(round(x / scale) + zeroPoint)`, ties away from zero, dividing (not
    /// multiplying by a reciprocal) as TFLite's `AffineQuantize` does.
    @inlinable
    public static func quantize<T: QuantizedElement>(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<T>, count: Int, scale: Float, zeroPoint: Int32
    ) {
        let lower = Int32(T.min)
        let upper = Int32(T.max)
        for i in 0..<count {
            let r = (input[i] / scale).rounded(.toNearestOrAwayFromZero)
            let q = Int32(r.isNaN ? 0 : max(min(r, 1e9), -1e9)) &+ zeroPoint
            output[i] = T(truncatingIfNeeded: min(max(q, lower), upper))
        }
    }

    /// QUANTIZE between 8-bit types (TFLite's `Requantize`): `clamp(multiply(x − zpIn) + zpOut)` with the multiplier
    /// of `scaleIn / scaleOut` (`applyRuy`: TFLite's optimized requantization breaks ties of its final shift toward
    /// +∞; measured against LiteRT 2.3).
    @inlinable
    public static func requantize<S: QuantizedElement, T: QuantizedElement>(
        input: UnsafePointer<S>, output: UnsafeMutablePointer<T>, count: Int, inputZeroPoint: Int32,
        outputZeroPoint: Int32, multiplier: QuantizedMultiplier
    ) {
        let lower = Int32(T.min)
        let upper = Int32(T.max)
        for i in 0..<count {
            let q = multiplier.applyRuy(Int32(input[i]) &- inputZeroPoint) &+ outputZeroPoint
            output[i] = T(truncatingIfNeeded: min(max(q, lower), upper))
        }
    }
}
