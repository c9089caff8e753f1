/// Element-wise binary operations with NumPy broadcasting and a fused output clamp.
///
/// Shapes are aligned on the right; every operand dimension equals the output's or is 1 (missing leading
/// dimensions count as 1). All tensors are float32, row-major and contiguous; rank ≤ 6 by convention, although any
/// rank works. Same-shape operands, a scalar operand and a per-channel (last-dimension) operand all reduce to
/// contiguous inner loops: size-1 output dimensions are dropped and adjacent dimensions that both operands walk
/// alike are merged before iterating. The output may alias an operand that has the output's shape.
public enum BinaryElementwise {
    /// Computes `output = clamp(op(lhs, rhs))` over `outputShape`, split over `pool`. Plans the broadcast on every
    /// call; the interpreter plans once and calls ``run(_:lhs:rhs:output:plan:clamp:pool:)``.
    /// - Precondition: `lhsShape` and `rhsShape` broadcast to `outputShape`.
    public static func run(
        _ op: BinaryOperation, lhs: UnsafePointer<Float>, lhsShape: [Int], rhs: UnsafePointer<Float>,
        rhsShape: [Int], output: UnsafeMutablePointer<Float>, outputShape: [Int], clamp: ClampRange,
        pool: ThreadPool
    ) {
        if outputShape.contains(0) { return }
        run(
            op, lhs: lhs, rhs: rhs, output: output,
            plan: BroadcastPlan(lhsShape: lhsShape, rhsShape: rhsShape, outputShape: outputShape), clamp: clamp,
            pool: pool)
    }

    /// Computes `output = clamp(op(lhs, rhs))` over `plan.outputShape` with operands of the shapes `plan` was made
    /// for, split over `pool`. Allocates nothing.
    public static func run(
        _ op: BinaryOperation, lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>,
        output: UnsafeMutablePointer<Float>, plan: BroadcastPlan, clamp: ClampRange, pool: ThreadPool
    ) {
        switch op {
        case .add: loop(AddFunctor.self)
        case .sub: loop(SubFunctor.self)
        case .mul: loop(MulFunctor.self)
        case .div: loop(DivFunctor.self)
        case .maximum: loop(MaximumFunctor.self)
        case .minimum: loop(MinimumFunctor.self)
        case .squaredDifference: loop(SquaredDifferenceFunctor.self)
        }

        func loop<F: BinaryFunctor>(_ functor: F.Type) {
            broadcastLoop(F.self, lhs: lhs, rhs: rhs, output: output, plan: plan, clamp: clamp, pool: pool)
        }
    }
}

private enum AddFunctor: BinaryFunctor {
    @inline(__always) static func apply(_ lhs: Float, _ rhs: Float) -> Float { lhs + rhs }
}

private enum SubFunctor: BinaryFunctor {
    @inline(__always) static func apply(_ lhs: Float, _ rhs: Float) -> Float { lhs - rhs }
}

private enum MulFunctor: BinaryFunctor {
    @inline(__always) static func apply(_ lhs: Float, _ rhs: Float) -> Float { lhs * rhs }
}

private enum DivFunctor: BinaryFunctor {
    @inline(__always) static func apply(_ lhs: Float, _ rhs: Float) -> Float { lhs / rhs }
}

private enum MaximumFunctor: BinaryFunctor {
    @inline(__always) static func apply(_ lhs: Float, _ rhs: Float) -> Float { max(lhs, rhs) }
}

private enum MinimumFunctor: BinaryFunctor {
    @inline(__always) static func apply(_ lhs: Float, _ rhs: Float) -> Float { min(lhs, rhs) }
}

private enum SquaredDifferenceFunctor: BinaryFunctor {
    @inline(__always) static func apply(_ lhs: Float, _ rhs: Float) -> Float {
        let difference = lhs - rhs
        return difference * difference
    }
}
