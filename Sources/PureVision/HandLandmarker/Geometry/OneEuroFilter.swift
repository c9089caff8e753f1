/// A One Euro filter for one scalar signal (Casiez, Roussel & Vogel, "1€ Filter: A Simple Speed-based Low-pass
/// Filter for Noisy Input in Interactive Systems", CHI 2012): an exponential smoother whose cutoff frequency
/// rises with the signal's speed, so it removes jitter at rest without lagging behind fast motion.
///
/// With sampling period `Tₑ` (seconds between samples) and the smoothing factor of a first-order low-pass
/// filter at cutoff `f`, `α(f) = 1 / (1 + τ/Tₑ)` with `τ = 1 / (2πf)`, each sample `xᵢ` after the first gives
/// - the raw speed `ẋᵢ = (xᵢ − x̂ᵢ₋₁) / Tₑ`, smoothed at the fixed `derivativeCutoff`:
///   `ẋ̂ᵢ = ẋ̂ᵢ₋₁ + α(d_c)·(ẋᵢ − ẋ̂ᵢ₋₁)`;
/// - the adaptive cutoff `f_c = minCutoff + beta·|ẋ̂ᵢ|`;
/// - the output `x̂ᵢ = x̂ᵢ₋₁ + α(f_c)·(xᵢ − x̂ᵢ₋₁)`.
///
/// The first sample passes through unchanged with speed 0. Updates are written as `prev + α·(x − prev)`, the
/// same average as `α·x + (1 − α)·prev`, so a constant input comes out bit-for-bit unchanged.
public struct OneEuroFilter: Sendable {
    /// The filter's parameters (validated at creation).
    public let parameters: OneEuroFilterParameters
    private var previous: (value: Float, derivative: Float, timestampMilliseconds: Int64)?

    /// Creates a filter with no history.
    ///
    /// - Throws: `LandmarkSmoothingError.invalidParameters` when a parameter is out of range.
    public init(parameters: OneEuroFilterParameters = OneEuroFilterParameters()) throws(LandmarkSmoothingError) {
        try parameters.validate()
        self.parameters = parameters
    }

    /// Filters one sample taken at `timestampMilliseconds`.
    ///
    /// A non-finite sample is returned as it is and clears the history, so the next sample starts afresh.
    ///
    /// - Throws: `LandmarkSmoothingError.timestampNotIncreasing` when the timestamp is not later than the
    ///   previous sample's; the filter is left unchanged.
    public mutating func filter(_ value: Float, timestampMilliseconds: Int64) throws(LandmarkSmoothingError) -> Float {
        guard let previous else {
            if value.isFinite {
                self.previous = (value, 0, timestampMilliseconds)
            }
            return value
        }
        guard timestampMilliseconds > previous.timestampMilliseconds else {
            throw .timestampNotIncreasing(
                previousMilliseconds: previous.timestampMilliseconds, currentMilliseconds: timestampMilliseconds)
        }
        guard value.isFinite else {
            self.previous = nil
            return value
        }
        let period = Self.period(from: previous.timestampMilliseconds, to: timestampMilliseconds)
        let (filtered, derivative) = Self.step(
            value, previous: previous.value, previousDerivative: previous.derivative,
            period: period, parameters: parameters)
        self.previous = (filtered, derivative, timestampMilliseconds)
        return filtered
    }

    /// Forgets the history: the next sample passes through unchanged.
    public mutating func reset() {
        previous = nil
    }

    /// The time between two timestamps in seconds, `(t₁ − t₀) / 1000` (computed in double, never overflows).
    static func period(from start: Int64, to end: Int64) -> Float {
        Float((Double(end) - Double(start)) / 1000)
    }

    /// The low-pass smoothing factor `α = 1 / (1 + τ/Tₑ)`, `τ = 1/(2πf)`, written as `r / (1 + r)`, `r = 2πf·Tₑ`.
    static func smoothingFactor(cutoff: Float, period: Float) -> Float {
        let r = 2 * Float.pi * cutoff * period
        return r / (1 + r)
    }

    /// One filter step from the previous output and smoothed speed; returns the new output and smoothed speed.
    static func step(
        _ value: Float, previous: Float, previousDerivative: Float, period: Float, parameters: OneEuroFilterParameters
    ) -> (value: Float, derivative: Float) {
        let rawDerivative = (value - previous) / period
        let derivativeAlpha = smoothingFactor(cutoff: parameters.derivativeCutoff, period: period)
        let derivative = previousDerivative + derivativeAlpha * (rawDerivative - previousDerivative)
        let cutoff = parameters.minCutoff + parameters.beta * abs(derivative)
        let alpha = smoothingFactor(cutoff: cutoff, period: period)
        return (previous + alpha * (value - previous), derivative)
    }
}
