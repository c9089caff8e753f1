import Testing

// Helpers shared by the kernel test suites.

/// SplitMix64, so every case's data is reproducible from its seed.
struct Random {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func float(_ lower: Float, _ upper: Float) -> Float {
        lower + Float(next() >> 40) / Float(1 << 24) * (upper - lower)
    }

    mutating func floats(_ count: Int, _ lower: Float = -4, _ upper: Float = 4) -> [Float] {
        (0..<count).map { _ in float(lower, upper) }
    }
}

/// Expects `|actual - expected| ≤ tolerance · (1 + |expected|)` elementwise (NaN matches NaN).
func expectClose(
    _ actual: [Float], _ expected: [Float], tolerance: Float, _ context: String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(actual.count == expected.count, "count \(context)", sourceLocation: sourceLocation)
    for (i, (a, b)) in zip(actual, expected).enumerated() {
        let ok = (a.isNaN && b.isNaN) || a == b || Swift.abs(a - b) <= tolerance * (1 + Swift.abs(b))
        if !ok {
            Issue.record("element \(i): \(a) vs \(b) \(context)", sourceLocation: sourceLocation)
            return
        }
    }
}

/// Expects `actual` to equal `expected` bit for bit (a twin test's contract), naming the first element that differs.
func expectBitIdentical(
    _ actual: [Float], _ expected: [Float], _ context: String = "", sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(
        actual.count == expected.count, "count \(actual.count) vs \(expected.count) \(context)",
        sourceLocation: sourceLocation)
    let common = 0..<min(actual.count, expected.count)
    guard let index = common.first(where: { actual[$0].bitPattern != expected[$0].bitPattern }) else { return }
    Issue.record("element \(index): \(actual[index]) vs \(expected[index]) \(context)", sourceLocation: sourceLocation)
}

/// A seed that depends only on `value`'s description (its fields), the same in every run — unlike `hashValue`, which
/// Swift randomizes per process, so a failing case could not be reproduced.
func stableSeed<T>(_ value: T) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in String(describing: value).utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash & 0xFFFF
}
