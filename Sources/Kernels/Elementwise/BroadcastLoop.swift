/// A scalar function of two floats that the broadcast loop specializes on, so each operation gets its own
/// vectorizable inner loop instead of a `switch` per element.
protocol BinaryFunctor {
    static func apply(_ lhs: Float, _ rhs: Float) -> Float
}

/// The iteration space of a broadcast element-wise operation after dropping size-1 output dimensions and merging
/// adjacent dimensions that both operands walk the same way. Strides are in elements; 0 means "broadcast".
struct BroadcastPlan {
    var dimensions: [Int] = []
    var lhsStrides: [Int] = []
    var rhsStrides: [Int] = []

    /// Plans `outputShape`, which both operand shapes must broadcast to under NumPy rules (aligned right).
    init(lhsShape: [Int], rhsShape: [Int], outputShape: [Int]) {
        let rank = outputShape.count
        precondition(lhsShape.count <= rank && rhsShape.count <= rank, "operand rank exceeds output rank")
        let lhs = BroadcastPlan.strides(of: lhsShape, against: outputShape)
        let rhs = BroadcastPlan.strides(of: rhsShape, against: outputShape)
        for axis in 0..<rank where outputShape[axis] != 1 {
            let size = outputShape[axis]
            if let last = dimensions.indices.last,
                BroadcastPlan.mergeable(lhsStrides[last], lhs[axis], size),
                BroadcastPlan.mergeable(rhsStrides[last], rhs[axis], size)
            {
                dimensions[last] *= size
                lhsStrides[last] = lhs[axis]
                rhsStrides[last] = rhs[axis]
            } else {
                dimensions.append(size)
                lhsStrides.append(lhs[axis])
                rhsStrides.append(rhs[axis])
            }
        }
        if dimensions.isEmpty {
            dimensions = [1]
            lhsStrides = [0]
            rhsStrides = [0]
        }
    }

    /// Element strides of an operand laid out contiguously in `shape`, expressed over the output's axes.
    static func strides(of shape: [Int], against outputShape: [Int]) -> [Int] {
        let rank = outputShape.count
        var result = [Int](repeating: 0, count: rank)
        var running = 1
        for axis in stride(from: rank - 1, through: 0, by: -1) {
            let operandAxis = axis - (rank - shape.count)
            let size = operandAxis >= 0 ? shape[operandAxis] : 1
            precondition(
                size == outputShape[axis] || size == 1,
                "shape \(shape) does not broadcast to \(outputShape)")
            result[axis] = size == 1 ? 0 : running
            running *= size
        }
        return result
    }

    /// Whether an outer axis with stride `outer` folds into the next inner axis (`inner`, extent `innerSize`).
    private static func mergeable(_ outer: Int, _ inner: Int, _ innerSize: Int) -> Bool {
        (outer == 0 && inner == 0) || (outer != 0 && inner != 0 && outer == inner * innerSize)
    }
}

/// Runs `F` over a broadcast iteration space, clamping each output as it is written, split over `pool`.
@inline(__always)
func broadcastLoop<F: BinaryFunctor>(
    _ functor: F.Type, lhs: UnsafePointer<Float>, lhsShape: [Int], rhs: UnsafePointer<Float>, rhsShape: [Int],
    output: UnsafeMutablePointer<Float>, outputShape: [Int], clamp: ClampRange, pool: ThreadPool
) {
    if outputShape.contains(0) { return }
    let plan = BroadcastPlan(lhsShape: lhsShape, rhsShape: rhsShape, outputShape: outputShape)
    let rank = plan.dimensions.count
    let innerCount = plan.dimensions[rank - 1]
    let lhsInner = plan.lhsStrides[rank - 1]
    let rhsInner = plan.rhsStrides[rank - 1]
    let rowCount = plan.dimensions.dropLast().reduce(1, *)
    let lower = clamp.lower
    let upper = clamp.upper
    let grain = 16_384

    if rowCount == 1 {
        pool.parallelRanges(innerCount, minimumChunk: grain) { range in
            broadcastRow(
                F.self, lhs: lhs + range.lowerBound * lhsInner, lhsStride: lhsInner,
                rhs: rhs + range.lowerBound * rhsInner, rhsStride: rhsInner,
                output: output + range.lowerBound, count: range.count, lower: lower, upper: upper)
        }
        return
    }
    pool.parallelRanges(rowCount, minimumChunk: max(1, grain / innerCount)) { rows in
        var index = [Int](repeating: 0, count: rank - 1)
        var remainder = rows.lowerBound
        var lhsOffset = 0
        var rhsOffset = 0
        for axis in stride(from: rank - 2, through: 0, by: -1) {
            index[axis] = remainder % plan.dimensions[axis]
            remainder /= plan.dimensions[axis]
            lhsOffset += index[axis] * plan.lhsStrides[axis]
            rhsOffset += index[axis] * plan.rhsStrides[axis]
        }
        for row in rows {
            broadcastRow(
                F.self, lhs: lhs + lhsOffset, lhsStride: lhsInner, rhs: rhs + rhsOffset, rhsStride: rhsInner,
                output: output + row * innerCount, count: innerCount, lower: lower, upper: upper)
            var axis = rank - 2
            while axis >= 0 {
                index[axis] += 1
                lhsOffset += plan.lhsStrides[axis]
                rhsOffset += plan.rhsStrides[axis]
                if index[axis] < plan.dimensions[axis] { break }
                lhsOffset -= plan.lhsStrides[axis] * index[axis]
                rhsOffset -= plan.rhsStrides[axis] * index[axis]
                index[axis] = 0
                axis -= 1
            }
        }
    }
}

/// One contiguous run of outputs. Each stride pattern gets its own loop so the common ones vectorize.
@inline(__always)
func broadcastRow<F: BinaryFunctor>(
    _ functor: F.Type, lhs: UnsafePointer<Float>, lhsStride: Int, rhs: UnsafePointer<Float>, rhsStride: Int,
    output: UnsafeMutablePointer<Float>, count: Int, lower: Float, upper: Float
) {
    switch (lhsStride, rhsStride) {
    case (1, 1):
        for i in 0..<count { output[i] = min(max(F.apply(lhs[i], rhs[i]), lower), upper) }
    case (0, 1):
        let a = lhs[0]
        for i in 0..<count { output[i] = min(max(F.apply(a, rhs[i]), lower), upper) }
    case (1, 0):
        let b = rhs[0]
        for i in 0..<count { output[i] = min(max(F.apply(lhs[i], b), lower), upper) }
    default:
        for i in 0..<count {
            output[i] = min(max(F.apply(lhs[i * lhsStride], rhs[i * rhsStride]), lower), upper)
        }
    }
}
