extension Reference {
    /// `C = clamp(bias + A · B)` as plain nested loops: the twin of ``PanelGEMM``. Each sum starts at `bias[j]` and
    /// adds the products in `p` order, each rounded then added (`.liteRT`) or fused into one rounding (`.xnnpack`).
    ///
    /// - Parameters:
    ///   - a: `A`, element `(i, p)` at `a[i * lda + p]`.
    ///   - b: `B`, element `(p, j)` at `b[p * ldb + j]`.
    ///   - bias: `[n]`.
    ///   - c: `C`, element `(i, j)` at `c[i * ldc + j]`; other elements untouched.
    public static func biasedMatrixProduct(
        m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
        bias: UnsafePointer<Float>, c: UnsafeMutablePointer<Float>, ldc: Int, clamp: ClampRange,
        arithmetic: Arithmetic
    ) {
        precondition(m >= 0 && n >= 0 && k >= 0 && lda >= k && ldb >= n && ldc >= n, "biasedMatrixProduct: shape")
        for i in 0..<m {
            for j in 0..<n {
                var sum = bias[j]
                for p in 0..<k {
                    let x = a[i * lda + p]
                    let w = b[p * ldb + j]
                    sum = arithmetic == .xnnpack ? sum.addingProduct(x, w) : sum + x * w
                }
                c[i * ldc + j] = clamp.apply(sum)
            }
        }
    }
}
