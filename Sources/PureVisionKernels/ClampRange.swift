/// A fused activation expressed as an output clamp: every kernel that takes one applies
/// `min(max(value, lower), upper)` to each output element as it is written, never as an extra pass.
public struct ClampRange: Sendable, Hashable, CustomStringConvertible {
    /// The smallest value an output may take.
    public var lower: Float
    /// The largest value an output may take.
    public var upper: Float

    /// Creates a clamp to `[lower, upper]`.
    public init(lower: Float, upper: Float) {
        self.lower = lower
        self.upper = upper
    }

    /// No activation: `[-∞, +∞]`.
    public static let none = ClampRange(lower: -.infinity, upper: .infinity)
    /// ReLU: `[0, +∞]`.
    public static let relu = ClampRange(lower: 0, upper: .infinity)
    /// ReLU6: `[0, 6]`.
    public static let relu6 = ClampRange(lower: 0, upper: 6)
    /// TFLite's RELU_N1_TO_1: `[-1, 1]`.
    public static let reluMinus1To1 = ClampRange(lower: -1, upper: 1)

    /// Whether the clamp can change any finite value.
    public var isIdentity: Bool { lower == -.infinity && upper == .infinity }

    /// Applies the clamp to one value.
    @inlinable
    public func apply(_ value: Float) -> Float { min(max(value, lower), upper) }

    public var description: String { "[\(lower), \(upper)]" }
}
