extension Reference {
    /// Mean over `axes` of a row-major tensor, as one pass over the input in row-major order: every input element
    /// is added (in float) to the output element it reduces into, then each output is scaled by the number `n` of
    /// elements reduced into it: divided by `n`, as TFLite's reference MEAN does, or multiplied by the float
    /// `1 / n`, as XNNPACK does (`scaling`).
    ///
    /// - Parameters:
    ///   - input: `inputShape` elements, row-major. Rank ≤ 6, every dimension ≥ 0.
    ///   - axes: Dimensions to reduce: sorted, unique, each in `0 ..< inputShape.count` (empty copies the input).
    ///   - output: The input shape with the reduced dimensions removed (keeping them as size 1 does not change the
    ///     memory). An empty reduction yields `0 / 0 = NaN`, as in TensorFlow (`0 · ∞` with the reciprocal).
    ///   - arithmetic: how the sums become means (see ``Arithmetic``).
    public static func mean(
        input: UnsafePointer<Float>, inputShape: [Int], axes: [Int], output: UnsafeMutablePointer<Float>,
        arithmetic: Arithmetic = .liteRT
    ) {
        let rank = inputShape.count
        precondition(inputShape.allSatisfy { $0 >= 0 }, "mean: negative dimension in \(inputShape)")
        precondition(zip(axes, axes.dropFirst()).allSatisfy { $0 < $1 } && axes.allSatisfy { $0 >= 0 && $0 < rank },
                     "mean: axes \(axes) must be sorted, unique and within rank \(rank)")
        var isReduced = [Bool](repeating: false, count: rank)
        for axis in axes { isReduced[axis] = true }
        // Output stride of each input dimension: 0 for reduced ones, so reduced coordinates land on the same output.
        var outputStrides = [Int](repeating: 0, count: rank)
        var outputCount = 1
        for axis in (0..<rank).reversed() where !isReduced[axis] {
            outputStrides[axis] = outputCount
            outputCount *= inputShape[axis]
        }
        let inputCount = inputShape.reduce(1, *)
        let reducedCount = axes.reduce(1) { $0 * inputShape[$1] }
        for index in 0..<outputCount { output[index] = 0 }
        var coordinates = [Int](repeating: 0, count: rank)
        var outputIndex = 0
        for inputIndex in 0..<inputCount {
            output[outputIndex] += input[inputIndex]
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
        scaleSums(arithmetic: arithmetic, output, count: outputCount, reducedCount: reducedCount)
    }

    /// Turns `count` sums of `reducedCount` elements each at `values` into means, in place: `sum / n` (LiteRT) or
    /// `sum · (1 / n)` with the reciprocal rounded to float first (XNNPACK).
    @inlinable
    public static func scaleSums(
        arithmetic: Arithmetic, _ values: UnsafeMutablePointer<Float>, count: Int, reducedCount: Int
    ) {
        switch arithmetic {
        case .liteRT:
            let divisor = Float(reducedCount)
            for index in 0..<count { values[index] /= divisor }
        case .xnnpack:
            let reciprocal = 1 / Float(reducedCount)
            for index in 0..<count { values[index] *= reciprocal }
        }
    }
}
