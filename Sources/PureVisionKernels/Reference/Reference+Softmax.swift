#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Reference {
    /// Scalar twin of `Softmax.run`: for each of `outerCount` rows of `axisSize` floats,
    /// `output[i] = exp(beta * (x[i] - max)) / Σ exp(beta * (x[j] - max))`.
    public static func softmax(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, outerCount: Int, axisSize: Int, beta: Float
    ) {
        for row in 0..<outerCount {
            let x = input + row * axisSize
            let y = output + row * axisSize
            var maximum = -Float.infinity
            for i in 0..<axisSize { maximum = max(maximum, x[i]) }
            var sum: Float = 0
            for i in 0..<axisSize {
                y[i] = expf(beta * (x[i] - maximum))
                sum += y[i]
            }
            for i in 0..<axisSize { y[i] = y[i] / sum }
        }
    }
}
