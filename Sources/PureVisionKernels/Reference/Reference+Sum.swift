extension Reference {
    /// Sum over `axes` of a row-major tensor (TFLite's SUM), as one pass over the input in row-major order: every
    /// input element is added (in float) to the output element it reduces into, as TFLite's reference reduction
    /// does. Used as the kernel too: SUM appears in small tensors only (the face blendshape model).
    ///
    /// - Parameters:
    ///   - input: `inputShape` elements, row-major. Every dimension ≥ 0.
    ///   - axes: Dimensions to reduce: sorted, unique, each in `0 ..< inputShape.count` (empty copies the input).
    ///   - output: The input shape with the reduced dimensions removed; an empty reduction yields 0.
    public static func sum(
        input: UnsafePointer<Float>, inputShape: [Int], axes: [Int], output: UnsafeMutablePointer<Float>
    ) {
        let rank = inputShape.count
        precondition(inputShape.allSatisfy { $0 >= 0 }, "sum: negative dimension in \(inputShape)")
        precondition(
            zip(axes, axes.dropFirst()).allSatisfy { $0 < $1 } && axes.allSatisfy { $0 >= 0 && $0 < rank },
            "sum: axes \(axes) must be sorted, unique and within rank \(rank)")
        var isReduced = [Bool](repeating: false, count: rank)
        for axis in axes { isReduced[axis] = true }
        var outputStrides = [Int](repeating: 0, count: rank)
        var outputCount = 1
        for axis in (0..<rank).reversed() where !isReduced[axis] {
            outputStrides[axis] = outputCount
            outputCount *= inputShape[axis]
        }
        let inputCount = inputShape.reduce(1, *)
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
    }
}
