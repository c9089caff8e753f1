/// The prepared parameters of a quantized ADD or SUB, TFLite's scheme: both inputs are shifted left by 20 bits and
/// scaled to a common scale of twice the larger input scale, summed (or subtracted), and scaled to the output.
public struct QuantizedAddParameters: Sendable, Hashable {
    /// `−zeroPoint` of each input.
    public var lhsOffset: Int32, rhsOffset: Int32
    /// The output zero point.
    public var outputOffset: Int32
    /// The input shift (20 for 8-bit).
    public var leftShift: Int32
    /// The multipliers of `scale_i / (2 · max scale)` and of `2 · max scale / (2^20 · output scale)`.
    public var lhsMultiplier: QuantizedMultiplier, rhsMultiplier: QuantizedMultiplier,
        outputMultiplier: QuantizedMultiplier
    /// The output clamp.
    public var range: QuantizedRange

    /// Computes the multipliers from the tensors' quantization as TFLite's ADD / SUB `Prepare` do.
    public init(
        lhsScale: Float, lhsZeroPoint: Int32, rhsScale: Float, rhsZeroPoint: Int32, outputScale: Float,
        outputZeroPoint: Int32, range: QuantizedRange
    ) {
        lhsOffset = -lhsZeroPoint
        rhsOffset = -rhsZeroPoint
        outputOffset = outputZeroPoint
        leftShift = 20
        let twiceMaximum = 2 * Double(max(lhsScale, rhsScale))
        lhsMultiplier = QuantizedMultiplier(Double(lhsScale) / twiceMaximum)
        rhsMultiplier = QuantizedMultiplier(Double(rhsScale) / twiceMaximum)
        outputMultiplier = QuantizedMultiplier(twiceMaximum / (Double(1 << 20) * Double(outputScale)))
        self.range = range
    }
}

extension Quantized {
    /// ADD (`subtract` false) or SUB of two 8-bit tensors broadcast by `plan`.
    @inlinable
    public static func add<T: QuantizedElement>(
        lhs: UnsafePointer<T>, rhs: UnsafePointer<T>, output: UnsafeMutablePointer<T>, plan: BroadcastPlan,
        parameters p: QuantizedAddParameters, subtract: Bool
    ) {
        var elements = 1
        for size in plan.dimensionSizes { elements *= size }
        guard elements >= 1024 else {
            plan.forEachElement { o, l, r in
                let a = p.lhsMultiplier.apply((p.lhsOffset &+ Int32(lhs[l])) &* (1 << p.leftShift))
                let b = p.rhsMultiplier.apply((p.rhsOffset &+ Int32(rhs[r])) &* (1 << p.leftShift))
                let raw = p.outputMultiplier.apply(subtract ? a &- b : a &+ b) &+ p.outputOffset
                output[o] = T(truncatingIfNeeded: p.range.clamp(raw))
            }
            return
        }
        // Each input's scaled term depends on its byte alone: 256 entries per side, indexed by the bit pattern.
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 512) { table in
            for byte in 0..<256 {
                let value = Int32(T(truncatingIfNeeded: byte))
                table[byte] = p.lhsMultiplier.apply((p.lhsOffset &+ value) &* (1 << p.leftShift))
                let b = p.rhsMultiplier.apply((p.rhsOffset &+ value) &* (1 << p.leftShift))
                table[256 + byte] = subtract ? 0 &- b : b
            }
            let base = table.baseAddress!
            let sizes = plan.dimensionSizes
            if sizes.count == 1, plan.lhsStrideList == [1], plan.rhsStrideList == [1] {
                // Same shapes: one flat loop over raw bytes, no index arithmetic per element.
                let (x, y) = (UnsafeRawPointer(lhs), UnsafeRawPointer(rhs))
                let (m, offset, range) = (p.outputMultiplier, p.outputOffset, p.range)
                for i in 0..<sizes[0] {
                    let sum =
                        base[Int(x.load(fromByteOffset: i, as: UInt8.self))]
                        &+ base[256 + Int(y.load(fromByteOffset: i, as: UInt8.self))]
                    output[i] = T(truncatingIfNeeded: range.clamp(m.apply(sum) &+ offset))
                }
                return
            }
            plan.forEachElement { o, l, r in
                let sum =
                    base[Int(UInt8(truncatingIfNeeded: lhs[l]))] &+ base[256 + Int(UInt8(truncatingIfNeeded: rhs[r]))]
                output[o] = T(truncatingIfNeeded: p.range.clamp(p.outputMultiplier.apply(sum) &+ p.outputOffset))
            }
        }
    }
}

extension BroadcastPlan {
    /// Calls `body(outputIndex, lhsIndex, rhsIndex)` for every output element in order.
    @inlinable
    public func forEachElement(_ body: (Int, Int, Int) -> Void) {
        if isEmpty { return }
        let dims = dimensionSizes
        let ls = lhsStrideList
        let rs = rhsStrideList
        let rank = dims.count
        let inner = dims[rank - 1]
        let li = ls[rank - 1]
        let ri = rs[rank - 1]
        var outer = 1
        for d in 0..<(rank - 1) { outer *= dims[d] }
        var o = 0
        for index in 0..<outer {
            var l = 0
            var r = 0
            var rest = index
            var d = rank - 2
            while d >= 0 {
                let i = rest % dims[d]
                rest /= dims[d]
                l += i * ls[d]
                r += i * rs[d]
                d -= 1
            }
            for j in 0..<inner {
                body(o, l + j * li, r + j * ri)
                o += 1
            }
        }
    }

    /// The merged dimension sizes the plan iterates over.
    public var dimensionSizes: [Int] { dimensions }
    /// The left operand's element stride per merged dimension (0 where it broadcasts).
    public var lhsStrideList: [Int] { lhsStrides }
    /// The right operand's element stride per merged dimension (0 where it broadcasts).
    public var rhsStrideList: [Int] { rhsStrides }
}
