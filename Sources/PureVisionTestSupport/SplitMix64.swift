/// SplitMix64, the seeded generator shared with `tools/make_engine_goldens.py`: the Python tool and the tests
/// produce the same values bit for bit, so seeded inputs never need to be committed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from a seed.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in [−1, 1) with 24 random bits: `(k − 2²³) / 2²³` for `k` the top 24 bits, exact in float32.
    public mutating func nextSignedUnitFloat() -> Float {
        let k = Int64(next() >> 40)
        return Float(k - (1 << 23)) / Float(1 << 23)
    }

    /// `count` values from `nextSignedUnitFloat()`.
    public mutating func signedUnitFloats(_ count: Int) -> [Float] {
        (0..<count).map { _ in nextSignedUnitFloat() }
    }
}
