/// How a row-major reduction starts each output and folds an input element into it (see
/// ``Reference/reduceRowMajor(_:input:inputShape:axes:output:operation:)``).
protocol RowMajorReducer {
    /// The value each output starts from (what an empty reduction gives).
    var initialValue: Float { get }
    /// `current` with `value` folded in.
    func combine(_ current: Float, _ value: Float) -> Float
}

/// Float addition from 0: SUM, and the sums MEAN scales.
struct FloatSumReducer: RowMajorReducer {
    var initialValue: Float { 0 }

    @inline(__always)
    func combine(_ current: Float, _ value: Float) -> Float { current + value }
}

extension ReductionExtremum: RowMajorReducer {}

extension Reference {
    /// The reduction over `axes` of a row-major tensor as TFLite's reference reductions run it: every output starts
    /// at `reducer.initialValue`, then one pass over the input in row-major order folds each element into the output
    /// it reduces into (`output = reducer.combine(output, element)`). Allocates nothing.
    ///
    /// - Parameters:
    ///   - input: `inputShape` elements, row-major, every dimension ≥ 0.
    ///   - axes: Dimensions to reduce: sorted, unique, each in `0 ..< inputShape.count` (empty copies the input).
    ///   - output: The input shape with the reduced dimensions removed.
    ///   - operation: The operator's name in the precondition messages.
    /// - Returns: The number of outputs.
    @discardableResult
    static func reduceRowMajor<Reducer: RowMajorReducer>(
        _ reducer: Reducer, input: UnsafePointer<Float>, inputShape: [Int], axes: [Int],
        output: UnsafeMutablePointer<Float>, operation: String
    ) -> Int {
        let rank = inputShape.count
        precondition(inputShape.allSatisfy { $0 >= 0 }, "\(operation): negative dimension in \(inputShape)")
        precondition(
            zip(axes, axes.dropFirst()).allSatisfy { $0 < $1 } && axes.allSatisfy { $0 >= 0 && $0 < rank },
            "\(operation): axes \(axes) must be sorted, unique and within rank \(rank)")
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: max(1, 3 * rank)) { scratch in
            guard let shape = scratch.baseAddress else { return 0 }
            // Output stride of each input dimension: 0 for reduced ones, so reduced coordinates land on one output.
            let outputStrides = shape + rank
            let coordinates = outputStrides + rank
            var outputCount = 1
            var inputCount = 1
            for axis in stride(from: rank - 1, through: 0, by: -1) {
                shape[axis] = inputShape[axis]
                coordinates[axis] = 0
                inputCount *= inputShape[axis]
                if axes.contains(axis) {
                    outputStrides[axis] = 0
                } else {
                    outputStrides[axis] = outputCount
                    outputCount *= inputShape[axis]
                }
            }
            output.update(repeating: reducer.initialValue, count: outputCount)
            var outputIndex = 0
            for inputIndex in 0..<inputCount {
                output[outputIndex] = reducer.combine(output[outputIndex], input[inputIndex])
                advanceRowMajorIndex(
                    coordinates, shape: shape, strides: outputStrides, lastAxis: rank - 1, offset: &outputIndex)
            }
            return outputCount
        }
    }
}
