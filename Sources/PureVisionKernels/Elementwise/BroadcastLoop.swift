/// A scalar function of two floats that the broadcast loop specializes on, so each operation gets its own
/// vectorizable inner loop instead of a `switch` per element.
protocol BinaryFunctor {
    static func apply(_ lhs: Float, _ rhs: Float) -> Float
}

/// The iteration space of a broadcast element-wise operation, planned once for fixed shapes: size-1 output
/// dimensions dropped and adjacent dimensions that both operands walk the same way merged. Strides are in elements;
/// 0 means "broadcast". Running a planned operation allocates nothing.
public struct BroadcastPlan: Sendable {
    /// The output shape the plan was made for.
    public let outputShape: [Int]
    /// Extents of the merged dimensions, outermost first; at least one.
    var dimensions: [Int] = []
    var lhsStrides: [Int] = []
    var rhsStrides: [Int] = []
    /// Whether the output has no elements (nothing to compute).
    public let isEmpty: Bool

    /// Plans `outputShape`, which both operand shapes must broadcast to under NumPy rules (aligned right).
    /// - Precondition: both shapes broadcast to `outputShape`.
    public init(lhsShape: [Int], rhsShape: [Int], outputShape: [Int]) {
        let rank = outputShape.count
        precondition(lhsShape.count <= rank && rhsShape.count <= rank, "operand rank exceeds output rank")
        self.outputShape = outputShape
        isEmpty = outputShape.contains(0)
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

/// Output elements between which a loop is not split over threads.
private let broadcastGrain = 16_384

/// Runs `F` over a planned broadcast iteration space, clamping each output as it is written, split over `pool`.
@inline(__always)
func broadcastLoop<F: BinaryFunctor>(
    _ functor: F.Type, lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
    plan: BroadcastPlan, clamp: ClampRange, pool: ThreadPool
) {
    if plan.isEmpty { return }
    let rank = plan.dimensions.count
    let innerCount = plan.dimensions[rank - 1]
    let rowCount = plan.dimensions.dropLast().reduce(1, *)
    let rows = BroadcastRows<F>(
        lhs: lhs, rhs: rhs, output: output, plan: plan, innerCount: innerCount,
        lhsInner: plan.lhsStrides[rank - 1], rhsInner: plan.rhsStrides[rank - 1], lower: clamp.lower,
        upper: clamp.upper)
    if rowCount == 1 {
        pool.parallelRanges(innerCount, minimumChunk: broadcastGrain, BroadcastSingleRow(rows: rows))
    } else {
        pool.parallelRanges(rowCount, minimumChunk: max(1, broadcastGrain / innerCount), rows)
    }
}

/// Rows of a broadcast iteration space (all merged dimensions but the innermost), in ranges.
private struct BroadcastRows<F: BinaryFunctor>: ParallelRangeBody {
    let lhs: UnsafePointer<Float>
    let rhs: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let plan: BroadcastPlan
    let innerCount: Int
    let lhsInner: Int
    let rhsInner: Int
    let lower: Float
    let upper: Float

    func run(range rows: Range<Int>) {
        let outerRank = plan.dimensions.count - 1
        plan.dimensions.withUnsafeBufferPointer { dimensions in
            plan.lhsStrides.withUnsafeBufferPointer { lhsStrides in
                plan.rhsStrides.withUnsafeBufferPointer { rhsStrides in
                    withUnsafeTemporaryAllocation(of: Int.self, capacity: outerRank) { index in
                        var remainder = rows.lowerBound
                        var lhsOffset = 0
                        var rhsOffset = 0
                        for axis in stride(from: outerRank - 1, through: 0, by: -1) {
                            index[axis] = remainder % dimensions[axis]
                            remainder /= dimensions[axis]
                            lhsOffset += index[axis] * lhsStrides[axis]
                            rhsOffset += index[axis] * rhsStrides[axis]
                        }
                        for row in rows {
                            broadcastRow(
                                F.self, lhs: lhs + lhsOffset, lhsStride: lhsInner, rhs: rhs + rhsOffset,
                                rhsStride: rhsInner, output: output + row * innerCount, count: innerCount,
                                lower: lower, upper: upper)
                            var axis = outerRank - 1
                            while axis >= 0 {
                                index[axis] += 1
                                lhsOffset += lhsStrides[axis]
                                rhsOffset += rhsStrides[axis]
                                if index[axis] < dimensions[axis] { break }
                                lhsOffset -= lhsStrides[axis] * index[axis]
                                rhsOffset -= rhsStrides[axis] * index[axis]
                                index[axis] = 0
                                axis -= 1
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The single row of a broadcast iteration space with no outer dimensions, in ranges of its elements.
private struct BroadcastSingleRow<F: BinaryFunctor>: ParallelRangeBody {
    let rows: BroadcastRows<F>

    func run(range: Range<Int>) {
        let r = rows
        broadcastRow(
            F.self, lhs: r.lhs + range.lowerBound * r.lhsInner, lhsStride: r.lhsInner,
            rhs: r.rhs + range.lowerBound * r.rhsInner, rhsStride: r.rhsInner, output: r.output + range.lowerBound,
            count: range.count, lower: r.lower, upper: r.upper)
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
