/// HARD_SWISH on 8-bit tensors in TFLite's int16 fixed-point scheme: the input (minus its zero point) moved to a
/// 7-bit-finer scale, a "relu-ish" factor in [0, 1] from the input rescaled so that 3 maps to 2^15, multiplied
/// without rounding into the input on the output scale, then shifted right to the output scale.
public struct QuantizedHardSwish: Sendable, Hashable {
    @usableFromInline let inputZeroPoint: Int32
    @usableFromInline let outputZeroPoint: Int32
    @usableFromInline let outputMultiplier: Int16
    @usableFromInline let outputExponent: Int
    @usableFromInline let reluishMultiplier: Int16
    @usableFromInline let reluishExponent: Int

    /// The parameters TFLite's `HardSwishPrepare` computes (multipliers in float, then down-scaled to int16 with
    /// rounding and saturation).
    public init(inputScale: Float, inputZeroPoint: Int32, outputScale: Float, outputZeroPoint: Int32) {
        self.inputZeroPoint = inputZeroPoint
        self.outputZeroPoint = outputZeroPoint
        let hiresInputScale = (1.0 as Float / 128.0) * inputScale
        let reluishScale: Float = 3.0 / 32768.0
        let output = QuantizedMultiplier(Double(hiresInputScale / outputScale))
        outputMultiplier = Self.downScale(output.multiplier)
        outputExponent = output.shift
        let reluish = QuantizedMultiplier(Double(hiresInputScale / reluishScale))
        reluishMultiplier = Self.downScale(reluish.multiplier)
        reluishExponent = reluish.shift
    }

    static func downScale(_ multiplier: Int32) -> Int16 {
        let rounding: Int32 = 1 << 15
        if multiplier >= Int32.max - rounding { return .max }
        return Int16(truncatingIfNeeded: (multiplier + rounding) >> 16)
    }

    /// Applies the op to `count` values (inlinable, so that callers get it specialized for their element type).
    @inlinable
    public func run<T: QuantizedElement>(input: UnsafePointer<T>, output: UnsafeMutablePointer<T>, count: Int) {
        for i in 0..<count {
            output[i] = T(truncatingIfNeeded: apply(Int32(input[i]), lower: Int32(T.min), upper: Int32(T.max)))
        }
    }

    @inlinable @inline(__always)
    func apply(_ x: Int32, lower: Int32, upper: Int32) -> Int32 {
        let value = Int16(truncatingIfNeeded: x - inputZeroPoint)
        let hires = value &* (1 << 7)
        let preshiftOutput = FixedPoint.saturatingRoundingDoublingHighMul(hires, outputMultiplier)
        var reluish = hires
        if reluishExponent > 0 { reluish = FixedPoint.saturatingLeftShift(reluish, reluishExponent - 1) }
        reluish = FixedPoint.saturatingRoundingDoublingHighMul(reluish, reluishMultiplier)
        if reluishExponent > 0 { reluish = FixedPoint.saturatingLeftShift(reluish, 1) }
        if reluishExponent < 0 { reluish = FixedPoint.roundingDivideByPOT(reluish, -reluishExponent) }
        reluish = Int16(truncatingIfNeeded: (Int32(reluish) + (1 << 15)) >> 1)
        let preshift = FixedPoint.saturatingDoublingHighMul(reluish, preshiftOutput)
        var result = Int32(FixedPoint.roundingDivideByPOT(preshift, -outputExponent))
        result += outputZeroPoint
        return min(max(result, lower), upper)
    }
}
