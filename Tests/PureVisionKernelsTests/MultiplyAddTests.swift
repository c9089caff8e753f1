import PureVisionKernels
import PureVisionTestSupport
import Testing

/// The 8-bit convolutions' pairwise multiply-add (`pmaddwd` on x86, widening products and pairwise sums elsewhere)
/// against its scalar definition, the arm64 form included on every machine.
@Suite struct MultiplyAddTests {
    /// Lane j: a[2j]·b[2j] + a[2j+1]·b[2j+1], computed in Int64 and wrapped to Int32 as pmaddwd does.
    static func reference(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> SIMD4<Int32> {
        var result = SIMD4<Int32>()
        for j in 0..<4 {
            let sum = Int64(a[2 * j]) * Int64(b[2 * j]) + Int64(a[2 * j + 1]) * Int64(b[2 * j + 1])
            result[j] = Int32(truncatingIfNeeded: sum)
        }
        return result
    }

    static let extremes: [Int16] = [.min, .min + 1, -256, -1, 0, 1, 255, .max]

    static func pairs() -> [(SIMD8<Int16>, SIMD8<Int16>)] {
        var pairs: [(SIMD8<Int16>, SIMD8<Int16>)] = []
        // Every pair of extreme values in every lane position.
        for x in extremes {
            for y in extremes {
                pairs.append((SIMD8(repeating: x), SIMD8(repeating: y)))
                var a = SIMD8<Int16>(repeating: x)
                a[3] = y
                pairs.append((a, SIMD8(repeating: y)))
            }
        }
        var generator = SplitMix64(seed: 7)
        for _ in 0..<2_000 {
            var a = SIMD8<Int16>()
            var b = SIMD8<Int16>()
            for lane in 0..<8 {
                a[lane] = Int16(truncatingIfNeeded: generator.next())
                b[lane] = Int16(truncatingIfNeeded: generator.next())
            }
            pairs.append((a, b))
        }
        return pairs
    }

    @Test func multiplyAddMatchesItsScalarDefinition() {
        let mismatches = Self.pairs().filter { a, b in
            QuantizedConv2DKernel.multiplyAdd(a, b) != Self.reference(a, b)
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(3))")
    }

    @Test func portableMultiplyAddMatchesItsScalarDefinition() {
        let mismatches = Self.pairs().filter { a, b in
            QuantizedConv2DKernel.portableMultiplyAdd(a, b) != Self.reference(a, b)
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(3))")
    }

    @Test func allFactorsAtTheMinimumWrapLikePMADDWD() {
        let minimum = SIMD8<Int16>(repeating: .min)
        #expect(QuantizedConv2DKernel.portableMultiplyAdd(minimum, minimum) == SIMD4(repeating: .min))
        #expect(QuantizedConv2DKernel.multiplyAdd(minimum, minimum) == SIMD4(repeating: .min))
    }
}
