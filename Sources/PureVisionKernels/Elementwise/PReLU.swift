/// Parametric ReLU: `output = input >= 0 ? input : alpha * input`, with `alpha` broadcast to the input.
///
/// Both `inputShape` and `alphaShape` broadcast to `outputShape` under NumPy rules (aligned right); in practice
/// `alpha` is per-channel (`[C]` or `[1, 1, C]`) over an NHWC input, which runs as a contiguous inner loop.
/// All tensors are float32, row-major and contiguous. The output may alias the input.
public enum PReLU {
    /// Computes PReLU over `outputShape`, split over `pool`. Plans the broadcast on every call; the interpreter
    /// plans once and calls ``run(input:alpha:output:plan:pool:)``.
    public static func run(
        input: UnsafePointer<Float>, inputShape: [Int], alpha: UnsafePointer<Float>, alphaShape: [Int],
        output: UnsafeMutablePointer<Float>, outputShape: [Int], pool: ThreadPool
    ) {
        if outputShape.contains(0) { return }
        run(
            input: input, alpha: alpha, output: output,
            plan: BroadcastPlan(lhsShape: inputShape, rhsShape: alphaShape, outputShape: outputShape), pool: pool)
    }

    /// Computes PReLU over `plan.outputShape`, with `plan` made for (input shape, alpha shape, output shape) in
    /// that order, split over `pool`. Allocates nothing.
    public static func run(
        input: UnsafePointer<Float>, alpha: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        plan: BroadcastPlan, pool: ThreadPool
    ) {
        broadcastLoop(PReLUFunctor.self, lhs: input, rhs: alpha, output: output, plan: plan, clamp: .none, pool: pool)
    }
}

private enum PReLUFunctor: BinaryFunctor {
    @inline(__always) static func apply(_ lhs: Float, _ rhs: Float) -> Float { lhs >= 0 ? lhs : rhs * lhs }
}
