#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

/// The 8-bit integer types quantized tensors are stored in.
public protocol QuantizedElement: FixedWidthInteger & Sendable & Codable & SIMDScalar {}
extension Int8: QuantizedElement {}
extension UInt8: QuantizedElement {}

/// Integer kernels for quantized tensors, bit-exact with TFLite's builtin kernels.
public enum Quantized {}

extension Quantized {
    /// QUANTIZE float32 → int8 / uint8: `clamp(round(x / scale) + zeroPoint)`, ties away from zero, dividing (not
    /// multiplying by a reciprocal) as TFLite's `AffineQuantize` does (NaN gives the zero point). On x86-64, 16
    /// elements at a time in SSE2 (see `quantizeSSE2`); elsewhere and for the last `count % 16`, ``quantizeScalar``.
    public static func quantize<T: QuantizedElement>(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<T>, count: Int, scale: Float, zeroPoint: Int32
    ) {
        var done = 0
        #if arch(x86_64)
            done = count / 16 * 16
            quantizeSSE2(
                input: input, output: UnsafeMutableRawPointer(output), count: done, scale: scale, zeroPoint: zeroPoint,
                signed: T.isSigned)
        #endif
        quantizeScalar(
            input: input + done, output: output + done, count: count - done, scale: scale, zeroPoint: zeroPoint)
    }

    #if arch(x86_64)
        /// `quantize` of `count` (a multiple of 16) elements, exactly: the same IEEE division, then ties away from zero
        /// as truncation plus a step where the exact remainder `q − trunc(q)` is ≥ 0.5 in magnitude (`q` first
        /// clamped to ±10⁹, and NaN lanes zeroed, as the scalar code does); the saturating packs to int16 and then
        /// int8 (or uint8) are the final clamp.
        @usableFromInline
        static func quantizeSSE2(
            input: UnsafePointer<Float>, output: UnsafeMutableRawPointer, count: Int, scale: Float, zeroPoint: Int32,
            signed: Bool
        ) {
            let scales = _mm_set1_ps(scale)
            let (half, minusHalf) = (_mm_set1_ps(0.5), _mm_set1_ps(-0.5))
            let (limit, minusLimit) = (_mm_set1_ps(1e9), _mm_set1_ps(-1e9))
            let offset = _mm_set1_epi32(zeroPoint)
            let source = UnsafeRawPointer(input)
            func rounded(_ offset16: Int) -> __m128i {
                var q = _mm_div_ps(source.loadUnaligned(fromByteOffset: offset16 &* 4, as: __m128.self), scales)
                q = _mm_and_ps(q, _mm_cmpord_ps(q, q))
                q = _mm_min_ps(_mm_max_ps(q, minusLimit), limit)
                let truncated = _mm_cvttps_epi32(q)
                let remainder = _mm_sub_ps(q, _mm_cvtepi32_ps(truncated))
                // Comparison masks are −1 where true: subtracting one steps up, adding the other steps down.
                let up = _mm_castps_si128(_mm_cmpge_ps(remainder, half))
                let down = _mm_castps_si128(_mm_cmple_ps(remainder, minusHalf))
                return _mm_add_epi32(_mm_add_epi32(_mm_sub_epi32(truncated, up), down), offset)
            }
            var i = 0
            while i < count {
                let low = _mm_packs_epi32(rounded(i), rounded(i &+ 4))
                let high = _mm_packs_epi32(rounded(i &+ 8), rounded(i &+ 12))
                let bytes = signed ? _mm_packs_epi16(low, high) : _mm_packus_epi16(low, high)
                (output + i).storeBytes(of: bytes, as: __m128i.self)
                i &+= 16
            }
        }
    #endif

    /// `quantize` one element at a time: the reference twin of the vector path.
    public static func quantizeScalar<T: QuantizedElement>(
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
