/// MediaPipe 0.10.14's `LowPassFilter` (`mediapipe/util/filtering/low_pass_filter.cc`): the first value passes
/// through; after that `float(float(α·v) + (1.0 − α)·stored)`, the second product and the sum in double.
struct MediaPipeLowPassFilter {
    private(set) var alpha: Float
    private(set) var lastRawValue: Float = 0
    private(set) var storedValue: Float = 0
    private(set) var isInitialized = false

    init(alpha: Float) {
        self.alpha = 0
        setAlpha(alpha)
    }

    /// Sets α unless it is outside [0, 1] (MediaPipe logs an error and keeps the previous α).
    mutating func setAlpha(_ newAlpha: Float) {
        guard newAlpha >= 0, newAlpha <= 1 else { return }
        alpha = newAlpha
    }

    mutating func apply(_ value: Float) -> Float {
        let result: Float
        if isInitialized {
            result = Float(Double(alpha * value) + (1.0 - Double(alpha)) * Double(storedValue))
        } else {
            result = value
            isInitialized = true
        }
        lastRawValue = value
        storedValue = result
        return result
    }

    mutating func apply(_ value: Float, alpha newAlpha: Float) -> Float {
        setAlpha(newAlpha)
        return apply(value)
    }
}

/// MediaPipe 0.10.14's `OneEuroFilter` (`mediapipe/util/filtering/one_euro_filter.cc`), with its numeric quirks:
/// state in double except the two low-pass filters (float); the frequency is re-estimated from the timestamps only
/// when neither the previous nor the new timestamp is 0 (a sequence starting at t = 0 filters its second sample at
/// the initial frequency); the derivative is `(value − last raw value) · valueScale · frequency`.
struct MediaPipeOneEuroFilter {
    private var frequency: Double
    private let minCutoff: Double
    private let beta: Double
    private let derivativeCutoff: Double
    private var x: MediaPipeLowPassFilter
    private var dx: MediaPipeLowPassFilter
    private var lastTimeNanoseconds = Int64.min

    init(frequency: Double, minCutoff: Double, beta: Double, derivativeCutoff: Double) {
        self.frequency = frequency
        self.minCutoff = minCutoff
        self.beta = beta
        self.derivativeCutoff = derivativeCutoff
        x = MediaPipeLowPassFilter(alpha: Float(Self.alpha(cutoff: minCutoff, frequency: frequency)))
        dx = MediaPipeLowPassFilter(alpha: Float(Self.alpha(cutoff: derivativeCutoff, frequency: frequency)))
    }

    /// `1 / (1 + τ/Tₑ)` with `Tₑ = 1/frequency`, `τ = 1/(2π·cutoff)`, in double.
    private static func alpha(cutoff: Double, frequency: Double) -> Double {
        let te = 1.0 / frequency
        let tau = 1.0 / (2 * Double.pi * cutoff)
        return 1.0 / (1.0 + tau / te)
    }

    /// Filters one sample; a timestamp not after the previous one returns the value unfiltered.
    mutating func apply(timestampNanoseconds: Int64, valueScale: Double, value: Double) -> Double {
        guard lastTimeNanoseconds < timestampNanoseconds else { return value }
        if lastTimeNanoseconds != 0 && timestampNanoseconds != 0 {
            // The first call's difference from Int64.min wraps, as in the C++; that frequency only shapes the first
            // sample's α, and the first sample passes through.
            frequency = 1.0 / (Double(timestampNanoseconds &- lastTimeNanoseconds) * 1e-9)
        }
        lastTimeNanoseconds = timestampNanoseconds
        let derivative = x.isInitialized ? (value - Double(x.lastRawValue)) * valueScale * frequency : 0.0
        let derivativeAlpha = Float(Self.alpha(cutoff: derivativeCutoff, frequency: frequency))
        let smoothedDerivative = Double(dx.apply(Float(derivative), alpha: derivativeAlpha))
        let cutoff = minCutoff + beta * abs(smoothedDerivative)
        return Double(x.apply(Float(value), alpha: Float(Self.alpha(cutoff: cutoff, frequency: frequency))))
    }
}
