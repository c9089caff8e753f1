extension Reduction {
    /// REDUCE_MAX / REDUCE_MIN over one contiguous block of dimensions, the tensor seen as
    /// `[outerCount, reducedCount, innerCount]`; same results as
    /// ``Reference/reduceExtremum(_:input:inputShape:axes:output:)`` for those axes (the same comparisons in the same
    /// order). Allocates nothing.
    ///
    /// - Parameters:
    ///   - input: `outerCount · reducedCount · innerCount` elements.
    ///   - output: `outerCount · innerCount` elements; must not overlap the input.
    public static func extremum(
        _ extremum: ReductionExtremum, input: UnsafePointer<Float>, outerCount: Int, reducedCount: Int,
        innerCount: Int, output: UnsafeMutablePointer<Float>
    ) {
        precondition(outerCount >= 0 && reducedCount >= 0 && innerCount >= 0, "reduce: negative extent")
        for outer in 0..<outerCount {
            let row = output + outer * innerCount
            row.update(repeating: extremum.initialValue, count: innerCount)
            var source = input + outer * reducedCount * innerCount
            for _ in 0..<reducedCount {
                for inner in 0..<innerCount { row[inner] = extremum.combine(row[inner], source[inner]) }
                source += innerCount
            }
        }
    }
}
