/// Parametric ReLU: `output = input >= 0 ? input : alpha * input`, with `alpha` broadcast to the input.
///
/// Both `inputShape` and `alphaShape` broadcast to `outputShape` under NumPy rules (aligned right); in practice
/// `alpha` is per-channel (`[C]` or `[1, 1, C]`) over an NHWC input, which runs as a contiguous inner loop.
/// All tensors are float32, row-major and contiguous. The output may alias the input.
public enum PReLU {
    /// Computes PReLU over `outputShape`, split over `pool`.
    public static func run(
        input: UnsafePointer<Float>, inputShape: [Int], alpha: UnsafePointer<Float>, alphaShape: [Int],
        output: UnsafeMutablePointer<Float>, outputShape: [Int], pool: ThreadPool
    ) {
        broadcastLoop(
            PReLUFunctor.self, lhs: input, lhsShape: inputShape, rhs: alpha, rhsShape: alphaShape, output: output,
            outputShape: outputShape, clamp: .none, pool: pool)
    }
}

private enum PReLUFunctor: BinaryFunctor {
    @inline(__always) static func apply(_ lhs: Float, _ rhs: Float) -> Float { lhs >= 0 ? lhs : rhs * lhs }
}
