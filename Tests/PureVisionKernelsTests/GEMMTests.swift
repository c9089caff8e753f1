import PureVisionKernels
import Testing

/// SplitMix64: a tiny seeded generator so every kernel test sees the same data on every run.
/// Shared by the GEMM, convolution, fully-connected, pooling and reduction tests.
struct SplitMixSource {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `[-1, 1)`.
    mutating func nextFloat() -> Float { Float(next() >> 40) / Float(1 << 23) - 1 }

    mutating func floats(_ count: Int) -> [Float] { (0..<count).map { _ in nextFloat() } }
}

/// Expects `actual[i] ≈ expected[i]` for every `i`: `|a − e| ≤ tolerance · (1 + |e|)`; reports the first mismatch
/// with `context`.
func expectNearlyEqual(
    _ actual: [Float], _ expected: [Float], tolerance: Float, _ context: @autoclosure () -> String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(
        actual.count == expected.count, "count \(actual.count) vs \(expected.count) \(context())",
        sourceLocation: sourceLocation)
    for index in 0..<min(actual.count, expected.count) {
        let a = actual[index]
        let e = expected[index]
        let close = a == e || abs(a - e) <= tolerance * (1 + abs(e))
        if !close {
            Issue.record(
                "index \(index): \(a) vs expected \(e) (tolerance \(tolerance)) \(context())",
                sourceLocation: sourceLocation)
            return
        }
    }
}

/// The thread pools every optimized kernel is checked with: inline, the machine's two cores, and more threads than
/// any kernel has work chunks for.
let testPools = [
    ThreadPool.serial, ThreadPool(threadCount: 2), ThreadPool(threadCount: 3), ThreadPool(threadCount: 16),
]

struct GEMMTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var m, n, k: Int
        var layout: GEMMRightLayout
        /// Extra elements at the end of every row of A, B and C.
        var rowPadding: Int
        var testDescription: String { "m\(m) n\(n) k\(k) \(layout) pad\(rowPadding)" }
    }

    static let cases: [Case] = {
        var cases: [Case] = []
        for (m, n, k) in [(1, 1, 1), (1, 31, 17), (2, 3, 9), (7, 8, 33), (17, 9, 1), (31, 17, 64), (64, 33, 7)] {
            for layout in [GEMMRightLayout.kByN, .nByK] {
                for rowPadding in [0, 3] {
                    cases.append(Case(m: m, n: n, k: k, layout: layout, rowPadding: rowPadding))
                }
            }
        }
        return cases
    }()

    /// Naive `A · B` in Double, from the same strided storage.
    static func naive(_ c: Case, a: [Float], lda: Int, b: [Float], ldb: Int, ldc: Int) -> [Float] {
        var result = [Float](repeating: .nan, count: c.m * ldc)
        for i in 0..<c.m {
            for j in 0..<c.n {
                var sum = 0.0
                for p in 0..<c.k {
                    let bValue = c.layout == .kByN ? b[p * ldb + j] : b[j * ldb + p]
                    sum += Double(a[i * lda + p]) * Double(bValue)
                }
                result[i * ldc + j] = Float(sum)
            }
        }
        return result
    }

    @Test(arguments: cases, [false, true])
    func multiplyMatchesNaive(_ c: Case, portable: Bool) {
        var random = SplitMixSource(seed: UInt64(c.m * 1_000_003 + c.n * 1009 + c.k))
        let lda = c.k + c.rowPadding
        let ldb = (c.layout == .kByN ? c.n : c.k) + c.rowPadding
        let ldc = c.n + c.rowPadding
        let a = random.floats(c.m * lda)
        let b = random.floats((c.layout == .kByN ? c.k : c.n) * ldb)
        let expected = GEMMTests.naive(c, a: a, lda: lda, b: b, ldb: ldb, ldc: ldc)
        var actual = [Float](repeating: .nan, count: c.m * ldc)
        actual.withUnsafeMutableBufferPointer { out in
            guard let cPointer = out.baseAddress else { return }
            if portable {
                GEMM.portableMultiply(
                    m: c.m, n: c.n, k: c.k, a: a, lda: lda, b: b, ldb: ldb, layout: c.layout, c: cPointer, ldc: ldc)
            } else {
                GEMM.multiply(
                    m: c.m, n: c.n, k: c.k, a: a, lda: lda, b: b, ldb: ldb, layout: c.layout, c: cPointer, ldc: ldc)
            }
        }
        // Padding columns of C are never written: they stay NaN in both arrays, and NaN == NaN fails, so compare
        // the written columns only.
        let written = { (matrix: [Float]) in (0..<c.m).flatMap { i in matrix[(i * ldc)..<(i * ldc + c.n)] } }
        let tolerance = 1e-6 * Float(c.k).squareRoot()
        expectNearlyEqual(written(actual), written(expected), tolerance: tolerance, "\(c) portable=\(portable)")
    }

    @Test func zeroDepthProductIsZero() {
        var c = [Float](repeating: .nan, count: 6)
        let a: [Float] = [1]
        let b: [Float] = [1]
        c.withUnsafeMutableBufferPointer { out in
            guard let pointer = out.baseAddress else { return }
            GEMM.multiply(m: 2, n: 3, k: 0, a: a, lda: 1, b: b, ldb: 3, layout: .kByN, c: pointer, ldc: 3)
        }
        #expect(c == [0, 0, 0, 0, 0, 0])
    }

    @Test func handCheckedProduct() {
        // [[1, 2], [3, 4]] · [[5, 6, 7], [8, 9, 10]] = [[21, 24, 27], [47, 54, 61]].
        let a: [Float] = [1, 2, 3, 4]
        let b: [Float] = [5, 6, 7, 8, 9, 10]
        var c = [Float](repeating: 0, count: 6)
        c.withUnsafeMutableBufferPointer { out in
            guard let pointer = out.baseAddress else { return }
            GEMM.multiply(m: 2, n: 3, k: 2, a: a, lda: 2, b: b, ldb: 3, layout: .kByN, c: pointer, ldc: 3)
        }
        #expect(c == [21, 24, 27, 47, 54, 61])
    }

    /// `accumulate: true` adds the product to what C holds, through BLAS, the portable loop, the one-row
    /// matrix-vector path and the zero-depth early return alike; `false` ignores it.
    @Test(arguments: [(false, 2), (true, 2), (false, 1), (true, 1)])
    func accumulateAddsToPriorValues(portable: Bool, rows: Int) {
        let a: [Float] = [1, 2, 3, 4]
        let b: [Float] = [5, 6, 7, 8, 9, 10]
        let product: [Float] = [21, 24, 27, 47, 54, 61]
        let prior: [Float] = [0.5, -1, 2, 100, -0.25, 3]
        let count = rows * 3
        for accumulate in [true, false] {
            var c = Array(prior[0..<count])
            var zeroDepth = Array(prior[0..<count])
            c.withUnsafeMutableBufferPointer { out in
                zeroDepth.withUnsafeMutableBufferPointer { empty in
                    guard let pointer = out.baseAddress, let emptyPointer = empty.baseAddress else { return }
                    if portable {
                        GEMM.portableMultiply(
                            m: rows, n: 3, k: 2, a: a, lda: 2, b: b, ldb: 3, layout: .kByN, c: pointer, ldc: 3,
                            accumulate: accumulate)
                    } else {
                        GEMM.multiply(
                            m: rows, n: 3, k: 2, a: a, lda: 2, b: b, ldb: 3, layout: .kByN, c: pointer, ldc: 3,
                            accumulate: accumulate)
                    }
                    GEMM.multiply(
                        m: rows, n: 3, k: 0, a: a, lda: 1, b: b, ldb: 3, layout: .kByN, c: emptyPointer, ldc: 3,
                        accumulate: accumulate)
                }
            }
            let expected = accumulate ? zip(prior, product).prefix(count).map { $0 + $1 } : Array(product[0..<count])
            #expect(c == expected, "accumulate=\(accumulate)")
            #expect(zeroDepth == (accumulate ? Array(prior[0..<count]) : [Float](repeating: 0, count: count)))
        }
    }

    @Test(arguments: [
        (ClampRange.none, [Float]([1.5, -3, 4.5, -0.5])), (.relu, [1.5, 0, 4.5, 0]),
        (.reluMinus1To1, [1, -1, 1, -0.5]),
    ])
    func biasAndClamp(clamp: ClampRange, expected: [Float]) {
        var c: [Float] = [1, -1, 4, 1.5]
        let bias: [Float] = [0.5, -2]
        c.withUnsafeMutableBufferPointer { out in
            guard let pointer = out.baseAddress else { return }
            GEMM.applyBiasAndClamp(m: 2, n: 2, c: pointer, ldc: 2, bias: bias, clamp: clamp)
        }
        #expect(c == expected)
    }

    @Test func clampWithoutBias() {
        var c: [Float] = [-1, 3, 7, 6.5]
        c.withUnsafeMutableBufferPointer { out in
            guard let pointer = out.baseAddress else { return }
            GEMM.applyBiasAndClamp(m: 1, n: 4, c: pointer, ldc: 4, bias: nil, clamp: .relu6)
        }
        #expect(c == [0, 3, 6, 6])
    }
}
