/// Which extremum REDUCE_MAX / REDUCE_MIN keeps.
public enum ReductionExtremum: Sendable, Hashable {
    /// REDUCE_MAX: the largest value; an empty reduction gives `-Float.greatestFiniteMagnitude`.
    case maximum
    /// REDUCE_MIN: the smallest value; an empty reduction gives `Float.greatestFiniteMagnitude`.
    case minimum

    /// TFLite's initial value (`numeric_limits<float>::lowest()` / `max()`).
    @inlinable public var initialValue: Float {
        self == .maximum ? -Float.greatestFiniteMagnitude : Float.greatestFiniteMagnitude
    }

    /// TFLite's reducer: the new value replaces the current one only when strictly beyond it, so NaN inputs are
    /// skipped.
    @inlinable public func combine(_ current: Float, _ value: Float) -> Float {
        switch self {
        case .maximum: value > current ? value : current
        case .minimum: value < current ? value : current
        }
    }
}

extension Reference {
    /// REDUCE_MAX / REDUCE_MIN over `axes` of a row-major tensor, as TFLite's reference kernel: each output starts
    /// at the extremum's initial value and takes every input element reduced into it, in row-major order.
    ///
    /// - Parameters:
    ///   - input: `inputShape` elements, row-major, every dimension ≥ 0.
    ///   - axes: Dimensions to reduce: sorted, unique, each in `0 ..< inputShape.count`.
    ///   - output: The input shape with the reduced dimensions removed.
    public static func reduceExtremum(
        _ extremum: ReductionExtremum, input: UnsafePointer<Float>, inputShape: [Int], axes: [Int],
        output: UnsafeMutablePointer<Float>
    ) {
        reduceRowMajor(extremum, input: input, inputShape: inputShape, axes: axes, output: output, operation: "reduce")
    }
}
