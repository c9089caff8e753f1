import PureVisionKernels
import Testing

/// QUANTIZE float32 → 8 bits: the vector path against its scalar twin, on counts with a tail and on the values
/// where rounding and clamping can go wrong (exact ties, NaN, infinities, signed zeros, values past the clamp and past
/// ±10⁹ steps).
@Suite struct QuantizeTests {
    static func inputs(scale: Float, count: Int, seed: UInt64) -> [Float] {
        var random = Random(state: seed)
        let special: [Float] = [
            .nan, -.nan, .infinity, -.infinity, 0, -0.0, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
            .leastNonzeroMagnitude, 1e12, -1e12, 2.5e9, -2.5e9,
        ]
        return (0..<count).map { i in
            if i < special.count { return special[i] }
            let steps = Float(Int(random.next() % 801) - 400)
            switch random.next() % 4 {
            case 0: return (steps + 0.5) * scale  // a tie, as exactly as float allows
            case 1: return steps * scale
            case 2: return (steps + 0.5).nextUp * scale
            default: return Float(Int64(bitPattern: random.next()) % 1_000_000) / 1000 * scale
            }
        }
    }

    static func check<T: QuantizedElement>(_: T.Type, scale: Float, zeroPoint: Int32, count: Int) {
        let x = inputs(scale: scale, count: count, seed: UInt64(count) &* 31 &+ UInt64(zeroPoint & 0xFF))
        var fast = [T](repeating: 0, count: count)
        var scalar = [T](repeating: 0, count: count)
        Quantized.quantize(input: x, output: &fast, count: count, scale: scale, zeroPoint: zeroPoint)
        Quantized.quantizeScalar(input: x, output: &scalar, count: count, scale: scale, zeroPoint: zeroPoint)
        #expect(fast == scalar, "\(T.self) scale \(scale) zero point \(zeroPoint) count \(count)")
    }

    @Test(arguments: [1, 16, 47, 1000, 4099], [Float(0.0076279), 0.5, 144.3, 1e-6])
    func vectorPathEqualsScalarTwin(count: Int, scale: Float) {
        Self.check(Int8.self, scale: scale, zeroPoint: 1, count: count)
        Self.check(Int8.self, scale: scale, zeroPoint: -128, count: count)
        Self.check(UInt8.self, scale: scale, zeroPoint: 131, count: count)
        Self.check(UInt8.self, scale: scale, zeroPoint: 0, count: count)
    }
}
