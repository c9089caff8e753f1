#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Element-wise one-input operations over a contiguous float32 buffer.
///
/// The piecewise-linear activations are branch-free loops the compiler vectorizes; the transcendental ones
/// (`logistic`, `tanh`, `exp`, `elu`) use the C library's single-precision functions, accurate to about one ulp.
/// `input` and `output` may be the same buffer (in place); otherwise they must not overlap.
public enum Unary {
    /// Computes `output[i] = op(input[i])` for `i` in `0..<count`, split over `pool`.
    public static func run(
        _ op: UnaryOperation, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, count: Int,
        pool: ThreadPool
    ) {
        precondition(count >= 0, "negative count")
        let grain = op.isTranscendental ? 2_048 : 16_384
        pool.parallelRanges(count, minimumChunk: grain, Chunks(op: op, input: input, output: output))
    }

    /// The elements, in contiguous ranges.
    private struct Chunks: ParallelRangeBody {
        let op: UnaryOperation
        let input: UnsafePointer<Float>
        let output: UnsafeMutablePointer<Float>

        func run(range: Range<Int>) {
            let source = input + range.lowerBound
            let destination = output + range.lowerBound
            let n = range.count
            switch op {
            case .relu: Unary.loop(ReluFunctor.self, source, destination, n)
            case .relu6: Unary.loop(Relu6Functor.self, source, destination, n)
            case .reluMinus1To1: Unary.loop(ReluMinus1To1Functor.self, source, destination, n)
            case .logistic: Unary.loop(LogisticFunctor.self, source, destination, n)
            case .tanh: Unary.loop(TanhFunctor.self, source, destination, n)
            case .hardSwish: Unary.loop(HardSwishFunctor.self, source, destination, n)
            case .leakyRelu(let alpha):
                for i in 0..<n {
                    let x = source[i]
                    destination[i] = x >= 0 ? x : alpha * x
                }
            case .abs: Unary.loop(AbsFunctor.self, source, destination, n)
            case .neg: Unary.loop(NegFunctor.self, source, destination, n)
            case .exp: Unary.loop(ExpFunctor.self, source, destination, n)
            case .sqrt: Unary.loop(SqrtFunctor.self, source, destination, n)
            case .rsqrt: Unary.loop(RsqrtFunctor.self, source, destination, n)
            case .square: Unary.loop(SquareFunctor.self, source, destination, n)
            case .elu: Unary.loop(EluFunctor.self, source, destination, n)
            }
        }
    }

    @inline(__always)
    private static func loop<F: UnaryFunctor>(
        _ functor: F.Type, _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, _ count: Int
    ) {
        for i in 0..<count { output[i] = F.apply(input[i]) }
    }
}

extension UnaryOperation {
    /// Whether the operation calls a C library function per element (and so deserves smaller parallel chunks).
    fileprivate var isTranscendental: Bool {
        switch self {
        case .logistic, .tanh, .exp, .elu: true
        default: false
        }
    }
}

private protocol UnaryFunctor {
    static func apply(_ x: Float) -> Float
}

private enum ReluFunctor: UnaryFunctor {
    @inline(__always) static func apply(_ x: Float) -> Float { max(x, 0) }
}

private enum Relu6Functor: UnaryFunctor {
    @inline(__always) static func apply(_ x: Float) -> Float { min(max(x, 0), 6) }
}

private enum ReluMinus1To1Functor: UnaryFunctor {
    @inline(__always) static func apply(_ x: Float) -> Float { min(max(x, -1), 1) }
}

private enum LogisticFunctor: UnaryFunctor {
    // Written so the exponential never overflows: for x < 0, e^x / (1 + e^x) keeps full relative precision
    // where the result is tiny.
    @inline(__always) static func apply(_ x: Float) -> Float {
        if x >= 0 { return 1 / (1 + expf(-x)) }
        let e = expf(x)
        return e / (1 + e)
    }
}

private enum TanhFunctor: UnaryFunctor {
    @inline(__always) static func apply(_ x: Float) -> Float { tanhf(x) }
}

private enum HardSwishFunctor: UnaryFunctor {
    @inline(__always) static func apply(_ x: Float) -> Float { x * min(max(x + 3, 0), 6) / 6 }
}

private enum AbsFunctor: UnaryFunctor {
    @inline(__always) static func apply(_ x: Float) -> Float { Swift.abs(x) }
}

private enum NegFunctor: UnaryFunctor {
    @inline(__always) static func apply(_ x: Float) -> Float { -x }
}

private enum ExpFunctor: UnaryFunctor {
    @inline(__always) static func apply(_ x: Float) -> Float { expf(x) }
}

private enum SqrtFunctor: UnaryFunctor {
    @inline(__always) static func apply(_ x: Float) -> Float { x.squareRoot() }
}

private enum RsqrtFunctor: UnaryFunctor {
    @inline(__always) static func apply(_ x: Float) -> Float { 1 / x.squareRoot() }
}

private enum SquareFunctor: UnaryFunctor {
    @inline(__always) static func apply(_ x: Float) -> Float { x * x }
}

private enum EluFunctor: UnaryFunctor {
    @inline(__always) static func apply(_ x: Float) -> Float { x < 0 ? expm1f(x) : x }
}
