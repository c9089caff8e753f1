#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Reference {
    /// Scalar twin of `Unary.run`: `output[i] = op(input[i])` for `i` in `0..<count`. May run in place.
    public static func unary(
        _ op: UnaryOperation, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, count: Int
    ) {
        for i in 0..<count {
            let x = input[i]
            let y: Float
            switch op {
            case .relu: y = max(x, 0)
            case .relu6: y = min(max(x, 0), 6)
            case .reluMinus1To1: y = min(max(x, -1), 1)
            case .logistic: y = x >= 0 ? 1 / (1 + expf(-x)) : expf(x) / (1 + expf(x))
            case .tanh: y = tanhf(x)
            case .hardSwish: y = x * min(max(x + 3, 0), 6) / 6
            case .leakyRelu(let alpha): y = x >= 0 ? x : alpha * x
            case .abs: y = Swift.abs(x)
            case .neg: y = -x
            case .exp: y = expf(x)
            case .sqrt: y = x.squareRoot()
            case .rsqrt: y = 1 / x.squareRoot()
            case .square: y = x * x
            case .elu: y = x < 0 ? expm1f(x) : x
            }
            output[i] = y
        }
    }
}
