import PureVisionKernels
import Testing

/// Quantized ADD / SUB on tensors large enough for the per-byte lookup tables (same shapes and broadcast), against
/// TFLite's per-element formula written out: both inputs shifted left by 20, rescaled, summed, rescaled to the output;
/// a same-shape ADD rescales its inputs with the vector loop's rounding over whole blocks and the scalar loop's after.
@Suite struct QuantizedAddTableTests {
    static func expected<T: QuantizedElement>(
        _ x: T, _ y: T, _ p: QuantizedAddParameters, subtract: Bool, vectorLoop: Bool
    ) -> T {
        let (cx, cy) = (p.lhsOffset &+ Int32(x), p.rhsOffset &+ Int32(y))
        let unsigned = T.self == UInt8.self
        let a =
            vectorLoop
            ? p.lhsMultiplier.addVectorTerm(cx, leftShift: p.leftShift, unsigned: unsigned)
            : p.lhsMultiplier.apply(cx &* (1 << p.leftShift))
        let b =
            vectorLoop
            ? p.rhsMultiplier.addVectorTerm(cy, leftShift: p.leftShift, unsigned: unsigned)
            : p.rhsMultiplier.apply(cy &* (1 << p.leftShift))
        let raw = p.outputMultiplier.apply(subtract ? a &- b : a &+ b) &+ p.outputOffset
        return T(truncatingIfNeeded: p.range.clamp(raw))
    }

    static func check<T: QuantizedElement>(_: T.Type, broadcast: Bool, subtract: Bool, seed: UInt64) {
        var random = Random(state: seed)
        let outputShape = [1, 9, 13, 24]
        let rhsShape = broadcast ? [1, 1, 13, 24] : outputShape
        let lhs = (0..<(9 * 13 * 24)).map { _ in T(truncatingIfNeeded: random.next()) }
        let rhs = (0..<rhsShape.reduce(1, *)).map { _ in T(truncatingIfNeeded: random.next()) }
        let (low, high): (Int32, Int32) = T.self == UInt8.self ? (0, 255) : (-128, 127)
        let p = QuantizedAddParameters(
            lhsScale: 0.031, lhsZeroPoint: T.self == UInt8.self ? 131 : -5, rhsScale: 0.0173,
            rhsZeroPoint: T.self == UInt8.self ? 117 : 12, outputScale: 0.041,
            outputZeroPoint: T.self == UInt8.self ? 128 : 3,
            range: QuantizedRange(lower: low + 4, upper: high - 9))
        let plan = BroadcastPlan(lhsShape: outputShape, rhsShape: rhsShape, outputShape: outputShape)
        var output = [T](repeating: 0, count: lhs.count)
        Quantized.add(lhs: lhs, rhs: rhs, output: &output, plan: plan, parameters: p, subtract: subtract)
        let width = 13 * 24
        let block = Quantized.addVectorBlock(T.self)
        let vectorEnd = broadcast || subtract ? 0 : lhs.count / block * block
        let wanted = (0..<lhs.count).map { i in
            expected(lhs[i], rhs[broadcast ? i % width : i], p, subtract: subtract, vectorLoop: i < vectorEnd)
        }
        #expect(output == wanted, "\(T.self) broadcast \(broadcast) subtract \(subtract)")
    }

    /// The 64 KiB pair table (same shapes, large tensors) against the formula, on counts with and without a tail
    /// after the last whole vector block, split over 1–3 threads.
    static func checkPairTable<T: QuantizedElement>(_: T.Type, count: Int, subtract: Bool, threads: Int) {
        var random = Random(state: UInt64(count * 8 + threads))
        let lhs = (0..<count).map { _ in T(truncatingIfNeeded: random.next()) }
        let rhs = (0..<count).map { _ in T(truncatingIfNeeded: random.next()) }
        let (low, high): (Int32, Int32) = T.self == UInt8.self ? (0, 255) : (-128, 127)
        let p = QuantizedAddParameters(
            lhsScale: 0.0213, lhsZeroPoint: T.self == UInt8.self ? 119 : -17, rhsScale: 0.0407,
            rhsZeroPoint: T.self == UInt8.self ? 140 : 9, outputScale: 0.052,
            outputZeroPoint: T.self == UInt8.self ? 126 : -2, range: QuantizedRange(lower: low + 2, upper: high - 3))
        let table = QuantizedPairTable(T.self, count: count, parameters: p, subtract: subtract, threadCount: threads)
        let pool = ThreadPool(threadCount: threads)
        var output = [T](repeating: 0, count: count)
        table.run(lhs: lhs, rhs: rhs, output: &output, pool: pool)
        let block = Quantized.addVectorBlock(T.self)
        let vectorEnd = subtract ? 0 : count / block * block
        let wanted = (0..<count).map { i in
            expected(lhs[i], rhs[i], p, subtract: subtract, vectorLoop: i < vectorEnd)
        }
        #expect(output == wanted, "\(T.self) count \(count) subtract \(subtract) threads \(threads)")
    }

    @Test(arguments: [8192, 8203, 40_000, 65_543], [1, 2, 3])
    func pairTableMatchesTheFormula(count: Int, threads: Int) {
        for subtract in [false, true] {
            Self.checkPairTable(Int8.self, count: count, subtract: subtract, threads: threads)
            Self.checkPairTable(UInt8.self, count: count, subtract: subtract, threads: threads)
        }
    }

    @Test(arguments: [false, true], [false, true])
    func tablesMatchTheFormula(broadcast: Bool, subtract: Bool) {
        Self.check(Int8.self, broadcast: broadcast, subtract: subtract, seed: 11)
        Self.check(UInt8.self, broadcast: broadcast, subtract: subtract, seed: 12)
    }
}
