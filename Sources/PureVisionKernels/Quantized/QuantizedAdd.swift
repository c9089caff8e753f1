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
    /// When set, ADD runs XNNPACK's arithmetic instead (SUB keeps TFLite's).
    public var xnnpack: XNNPACKAddTerms?

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

/// XNNPACK's quantized ADD, which MediaPipe runs: `out = ((bias + a · aMultiplier + b · bMultiplier + 2^(shift − 1))
/// >> shift) + zeroPoint`, clamped, on the stored 8-bit values `a` and `b`, with `bias = −(aMultiplier · aZeroPoint +
/// bMultiplier · bZeroPoint)`. The multipliers are the float ratios `inputScale / outputScale` times `2^shift`, rounded
/// to nearest (ties to even), `shift = 20 − exponent` of the larger ratio, so that the larger multiplier has 21 bits.
public struct XNNPACKAddTerms: Sendable, Hashable {
    /// `lhsScale / outputScale · 2^shift`, rounded.
    public var lhsMultiplier: Int32
    /// `rhsScale / outputScale · 2^shift`, rounded.
    public var rhsMultiplier: Int32
    /// `−(lhsMultiplier · lhsZeroPoint + rhsMultiplier · rhsZeroPoint)`.
    public var bias: Int32
    /// The right shift of the sum (12…30).
    public var shift: Int32

    /// XNNPACK's parameters, or nil where XNNPACK does not take the operation (a ratio outside `[2^-10, 2^8)`),
    /// which LiteRT then runs on its builtin kernel.
    public init?(lhsScale: Float, lhsZeroPoint: Int32, rhsScale: Float, rhsZeroPoint: Int32, outputScale: Float) {
        let lhsRatio = lhsScale / outputScale
        let rhsRatio = rhsScale / outputScale
        let valid: ClosedRange<Float> = 0x1p-10...Float(0x1p8).nextDown
        guard valid.contains(lhsRatio), valid.contains(rhsRatio) else { return nil }
        let exponent = Int32(max(lhsRatio, rhsRatio).bitPattern >> 23) - 127
        let shift = 20 - exponent
        func multiplier(_ ratio: Float) -> Int32 {
            Int32(Float(bitPattern: ratio.bitPattern &+ (UInt32(shift) << 23)).rounded(.toNearestOrEven))
        }
        lhsMultiplier = multiplier(lhsRatio)
        rhsMultiplier = multiplier(rhsRatio)
        bias = 0 &- (lhsMultiplier &* lhsZeroPoint &+ rhsMultiplier &* rhsZeroPoint)
        self.shift = shift
    }

    /// The output of one pair of stored values, before the zero point and the clamp.
    @inlinable
    public func apply(_ a: Int32, _ b: Int32) -> Int32 {
        (bias &+ a &* lhsMultiplier &+ b &* rhsMultiplier &+ (1 &<< (shift &- 1))) &>> shift
    }
}

extension Quantized {
    /// ADD (`subtract` false) or SUB of two 8-bit tensors broadcast by `plan`, in TFLite's arithmetic, or for an ADD
    /// with ``QuantizedAddParameters/xnnpack`` set in XNNPACK's.
    @inlinable
    public static func add<T: QuantizedElement>(
        lhs: UnsafePointer<T>, rhs: UnsafePointer<T>, output: UnsafeMutablePointer<T>, plan: BroadcastPlan,
        parameters p: QuantizedAddParameters, subtract: Bool
    ) {
        var elements = 1
        for size in plan.dimensionSizes { elements *= size }
        if let terms = p.xnnpack, !subtract {
            plan.forEachElement { o, l, r in
                let raw = terms.apply(Int32(lhs[l]), Int32(rhs[r])) &+ p.outputOffset
                output[o] = T(truncatingIfNeeded: p.range.clamp(raw))
            }
            return
        }
        let sizes = plan.dimensionSizes
        let flat = sizes.count == 1 && plan.lhsStrideList == [1] && plan.rhsStrideList == [1]
        // TFLite's same-shape ADD runs its vector loop over whole blocks and its scalar loop over the rest, and the
        // two round the input terms differently; SUB and broadcasts use the scalar rounding throughout.
        let vectorEnd = flat && !subtract ? elements / Self.addVectorBlock(T.self) * Self.addVectorBlock(T.self) : 0
        let unsigned = !T.isSigned
        guard elements >= 1024 else {
            plan.forEachElement { o, l, r in
                let x = p.lhsOffset &+ Int32(lhs[l])
                let y = p.rhsOffset &+ Int32(rhs[r])
                let a: Int32
                let b: Int32
                if o < vectorEnd {
                    a = p.lhsMultiplier.addVectorTerm(x, leftShift: p.leftShift, unsigned: unsigned)
                    b = p.rhsMultiplier.addVectorTerm(y, leftShift: p.leftShift, unsigned: unsigned)
                } else {
                    a = p.lhsMultiplier.apply(x &* (1 << p.leftShift))
                    b = p.rhsMultiplier.apply(y &* (1 << p.leftShift))
                }
                let raw = p.outputMultiplier.apply(subtract ? a &- b : a &+ b) &+ p.outputOffset
                output[o] = T(truncatingIfNeeded: p.range.clamp(raw))
            }
            return
        }
        // Each input's scaled term depends on its byte alone: 256 entries per side, indexed by the bit pattern; the
        // scalar-loop terms first, then the vector-loop terms.
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 1024) { table in
            for byte in 0..<256 {
                let value = Int32(T(truncatingIfNeeded: byte))
                let x = p.lhsOffset &+ value
                let y = p.rhsOffset &+ value
                table[byte] = p.lhsMultiplier.apply(x &* (1 << p.leftShift))
                let b = p.rhsMultiplier.apply(y &* (1 << p.leftShift))
                table[256 + byte] = subtract ? 0 &- b : b
                table[512 + byte] = p.lhsMultiplier.addVectorTerm(x, leftShift: p.leftShift, unsigned: unsigned)
                table[768 + byte] = p.rhsMultiplier.addVectorTerm(y, leftShift: p.leftShift, unsigned: unsigned)
            }
            let base = table.baseAddress!
            if flat {
                // Same shapes: one flat loop over raw bytes, no index arithmetic per element.
                let (x, y) = (UnsafeRawPointer(lhs), UnsafeRawPointer(rhs))
                let (m, offset, range) = (p.outputMultiplier, p.outputOffset, p.range)
                let vector = base + 512
                for i in 0..<vectorEnd {
                    let sum =
                        vector[Int(x.load(fromByteOffset: i, as: UInt8.self))]
                        &+ vector[256 + Int(y.load(fromByteOffset: i, as: UInt8.self))]
                    output[i] = T(truncatingIfNeeded: range.clamp(m.apply(sum) &+ offset))
                }
                for i in vectorEnd..<sizes[0] {
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

extension Quantized {
    /// The elements per iteration of TFLite's vectorized same-shape ADD loop: 16 for int8, 8 for uint8.
    @inlinable
    public static func addVectorBlock<T: QuantizedElement>(_: T.Type) -> Int { T.isSigned ? 16 : 8 }
}

extension QuantizedMultiplier {
    /// One input's scaled term of a quantized ADD as TFLite's vectorized same-shape loop computes it (its NEON code,
    /// which x86 builds run through NEON_2_SSE; measured against LiteRT 2.3's builtin kernels). The scalar loop
    /// rounds twice, `roundingDivideByPOT(srdhm(x · 2^leftShift, m), −shift)`. The int8 vector loop folds the
    /// (non-positive) input shift into the left shift and rounds once, `srdhm(x · 2^(leftShift + shift), m)`; the
    /// uint8 vector loop multiplies first and then shifts right with truncation toward −∞. Ties are where they differ.
    @inlinable
    public func addVectorTerm(_ centered: Int32, leftShift: Int32, unsigned: Bool) -> Int32 {
        if unsigned {
            let high = FixedPoint.saturatingRoundingDoublingHighMul(centered &* (1 &<< leftShift), multiplier)
            return shift >= 0 ? high &<< Int32(shift) : high &>> Int32(-shift)
        }
        let total = Int(leftShift) + shift
        let shifted = total >= 0 ? centered &<< Int32(total) : centered &>> Int32(-total)
        return FixedPoint.saturatingRoundingDoublingHighMul(shifted, multiplier)
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
