extension Reference {
    /// Scalar twin of `BinaryElementwise.run`: `output = clamp(op(lhs, rhs))` with NumPy broadcasting, one output
    /// element at a time through an explicit multi-index.
    public static func binary(
        _ op: BinaryOperation, lhs: UnsafePointer<Float>, lhsShape: [Int], rhs: UnsafePointer<Float>,
        rhsShape: [Int], output: UnsafeMutablePointer<Float>, outputShape: [Int], clamp: ClampRange
    ) {
        let count = outputShape.reduce(1, *)
        for flat in 0..<count {
            let a = lhs[broadcastSourceIndex(flat, outputShape: outputShape, sourceShape: lhsShape)]
            let b = rhs[broadcastSourceIndex(flat, outputShape: outputShape, sourceShape: rhsShape)]
            let value: Float
            switch op {
            case .add: value = a + b
            case .sub: value = a - b
            case .mul: value = a * b
            case .div: value = a / b
            case .maximum: value = max(a, b)
            case .minimum: value = min(a, b)
            case .squaredDifference: value = (a - b) * (a - b)
            }
            output[flat] = clamp.apply(value)
        }
    }

    /// The row-major index into an operand of `sourceShape` that output element `flat` of `outputShape` reads under
    /// NumPy broadcasting (shapes aligned right, size-1 dimensions repeated).
    static func broadcastSourceIndex(_ flat: Int, outputShape: [Int], sourceShape: [Int]) -> Int {
        precondition(sourceShape.count <= outputShape.count, "operand rank exceeds output rank")
        var remainder = flat
        var index = 0
        var sourceStride = 1
        for axis in stride(from: outputShape.count - 1, through: 0, by: -1) {
            let coordinate = remainder % outputShape[axis]
            remainder /= outputShape[axis]
            let sourceAxis = axis - (outputShape.count - sourceShape.count)
            guard sourceAxis >= 0 else { continue }
            let size = sourceShape[sourceAxis]
            precondition(size == outputShape[axis] || size == 1, "\(sourceShape) does not broadcast to \(outputShape)")
            if size != 1 { index += coordinate * sourceStride }
            sourceStride *= size
        }
        return index
    }
}
