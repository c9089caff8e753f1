/// The three parameters of a One Euro filter (Casiez, Roussel & Vogel, "1€ Filter: A Simple Speed-based Low-pass
/// Filter for Noisy Input in Interactive Systems", CHI 2012).
///
/// The cutoff frequency follows the signal's speed: `f_c = minCutoff + beta · |ẋ|`. At rest `minCutoff`
/// alone sets the smoothing (lower removes more jitter, adds more lag); `beta` opens the filter as the value
/// moves (higher lowers lag on fast motion). The paper's tuning recipe: set `beta` to 0 and lower `minCutoff`
/// until jitter at rest is acceptable, then raise `beta` until fast motion does not lag.
///
/// The defaults are for image-normalized landmarks (coordinates in [0, 1], speeds of order 1/s): the paper's
/// example `beta` of 0.007 assumes pixel-scale speeds and would make a hand crossing the frame lag by a few
/// frames. With `beta` 10, a landmark at rest (speed ≈ 0.03/s from jitter) is filtered at about 1.3 Hz, and one
/// crossing half the frame per second at about 6 Hz.
public struct OneEuroFilterParameters: Sendable, Hashable {
    /// Cutoff frequency at zero speed, in hertz; must be positive and finite.
    public var minCutoff: Float
    /// Speed coefficient, in hertz per (value unit per second); must be non-negative and finite.
    public var beta: Float
    /// Cutoff frequency of the low-pass filter on the derivative, in hertz; must be positive and finite.
    public var derivativeCutoff: Float

    /// Creates parameters; the defaults suit image-normalized hand landmarks at 15–60 frames per second.
    public init(minCutoff: Float = 1.0, beta: Float = 10.0, derivativeCutoff: Float = 1.0) {
        self.minCutoff = minCutoff
        self.beta = beta
        self.derivativeCutoff = derivativeCutoff
    }

    /// Checks the ranges above.
    ///
    /// - Throws: `LandmarkSmoothingError.invalidParameters` naming the first field out of range.
    public func validate() throws(LandmarkSmoothingError) {
        if !(minCutoff > 0 && minCutoff.isFinite) {
            throw .invalidParameters("minCutoff must be positive and finite, got \(minCutoff)")
        }
        if !(beta >= 0 && beta.isFinite) {
            throw .invalidParameters("beta must be non-negative and finite, got \(beta)")
        }
        if !(derivativeCutoff > 0 && derivativeCutoff.isFinite) {
            throw .invalidParameters("derivativeCutoff must be positive and finite, got \(derivativeCutoff)")
        }
    }
}
