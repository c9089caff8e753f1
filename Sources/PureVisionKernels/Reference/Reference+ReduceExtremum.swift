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
        let rank = inputShape.count
        precondition(inputShape.allSatisfy { $0 >= 0 }, "reduce: negative dimension in \(inputShape)")
        precondition(
            zip(axes, axes.dropFirst()).allSatisfy { $0 < $1 } && axes.allSatisfy { $0 >= 0 && $0 < rank },
            "reduce: axes \(axes) must be sorted, unique and within rank \(rank)")
        var outputStrides = [Int](repeating: 0, count: rank)
        var outputCount = 1
        for axis in (0..<rank).reversed() where !axes.contains(axis) {
            outputStrides[axis] = outputCount
            outputCount *= inputShape[axis]
        }
        for index in 0..<outputCount { output[index] = extremum.initialValue }
        let inputCount = inputShape.reduce(1, *)
        var coordinates = [Int](repeating: 0, count: rank)
        var outputIndex = 0
        for inputIndex in 0..<inputCount {
            output[outputIndex] = extremum.combine(output[outputIndex], input[inputIndex])
            var axis = rank - 1
            while axis >= 0 {
                coordinates[axis] += 1
                outputIndex += outputStrides[axis]
                if coordinates[axis] < inputShape[axis] { break }
                outputIndex -= outputStrides[axis] * coordinates[axis]
                coordinates[axis] = 0
                axis -= 1
            }
        }
    }
}
