#if canImport(Accelerate)
    import Accelerate
    import CPureVisionAccelerate
#elseif canImport(CPureVisionOpenBLAS)
    import CPureVisionOpenBLAS
#endif

/// How the right-hand matrix `B` of a ``GEMM`` product is stored.
public enum GEMMRightLayout: Sendable, Hashable {
    /// `B` is `k × n` row-major: element `(p, j)` at `b[p * ldb + j]` (packed conv weights `[K, N]`).
    case kByN
    /// `B` is stored transposed, `n × k` row-major: element `(p, j)` at `b[j * ldb + p]`
    /// (fully-connected weights `[outputSize, inputSize]`).
    case nByK
}

/// Single-precision matrix multiply `C[m×n] = A[m×k] · B[k×n]`, all row-major with explicit leading dimensions,
/// plus the fused bias-and-clamp epilogue the convolution and fully-connected kernels apply to its output.
///
/// Backed by CBLAS `sgemm` (OpenBLAS on Linux, opened at the first call with its threads off — see
/// `OpenBLASLibrary`; Accelerate on Apple), single-threaded so that the kernels' `ThreadPool` does all the
/// splitting; a portable Swift loop nest runs when no BLAS library is available.
public enum GEMM {
    /// Overwrites `c` with `A · B`, or adds `A · B` to it when `accumulate` is true (so a caller can prefill `c`
    /// with a bias and skip a separate pass).
    ///
    /// - Parameters:
    ///   - m: Rows of `A` and `C` (≥ 0).
    ///   - n: Columns of `B` and `C` (≥ 0).
    ///   - k: Columns of `A`, rows of `B` (≥ 0; with `k == 0`, `C` is zeroed).
    ///   - a: `A`, element `(i, p)` at `a[i * lda + p]`; `lda ≥ k`.
    ///   - b: `B` in `layout`, with leading dimension `ldb` (`≥ n` for `.kByN`, `≥ k` for `.nByK`).
    ///   - c: `C`, element `(i, j)` at `c[i * ldc + j]`; `ldc ≥ n`. Must not overlap `a` or `b`.
    ///   - accumulate: Whether to compute `C + A · B` instead of `A · B`. Default false.
    public static func multiply(
        m: Int, n: Int, k: Int,
        a: UnsafePointer<Float>, lda: Int,
        b: UnsafePointer<Float>, ldb: Int, layout: GEMMRightLayout,
        c: UnsafeMutablePointer<Float>, ldc: Int, accumulate: Bool = false
    ) {
        precondition(m >= 0 && n >= 0 && k >= 0, "GEMM: negative dimension m=\(m) n=\(n) k=\(k)")
        precondition(lda >= max(k, 1) && ldc >= max(n, 1), "GEMM: leading dimension too small")
        precondition(ldb >= max(layout == .kByN ? n : k, 1), "GEMM: ldb too small")
        if m == 0 || n == 0 { return }
        if k == 0 {
            if !accumulate {
                for i in 0..<m { (c + i * ldc).update(repeating: 0, count: n) }
            }
            return
        }
        #if canImport(Accelerate) || canImport(CPureVisionOpenBLAS)
            if isBLASAvailable {
                blasMultiply(
                    m: m, n: n, k: k, a: a, lda: lda, b: b, ldb: ldb, layout: layout, c: c, ldc: ldc,
                    accumulate: accumulate)
                return
            }
        #endif
        portableMultiply(
            m: m, n: n, k: k, a: a, lda: lda, b: b, ldb: ldb, layout: layout, c: c, ldc: ldc, accumulate: accumulate)
    }

    /// Adds `bias[j]` (when given) to every element of column `j` of the `m × n` matrix `c` and applies `clamp`,
    /// in one pass. Meant to run right after ``multiply(m:n:k:a:lda:b:ldb:layout:c:ldc:)`` on a block small
    /// enough to still be in cache.
    public static func applyBiasAndClamp(
        m: Int, n: Int, c: UnsafeMutablePointer<Float>, ldc: Int, bias: UnsafePointer<Float>?, clamp: ClampRange
    ) {
        let lower = clamp.lower
        let upper = clamp.upper
        if let bias {
            for i in 0..<m {
                let row = c + i * ldc
                for j in 0..<n { row[j] = min(max(row[j] + bias[j], lower), upper) }
            }
        } else if !clamp.isIdentity {
            for i in 0..<m {
                let row = c + i * ldc
                for j in 0..<n { row[j] = min(max(row[j], lower), upper) }
            }
        }
    }

    #if canImport(Accelerate) || canImport(CPureVisionOpenBLAS)
        private static func blasMultiply(
            m: Int, n: Int, k: Int,
            a: UnsafePointer<Float>, lda: Int,
            b: UnsafePointer<Float>, ldb: Int, layout: GEMMRightLayout,
            c: UnsafeMutablePointer<Float>, ldc: Int, accumulate: Bool
        ) {
            withSingleThreadedBLAS {
                blasCall(
                    m: m, n: n, k: k, a: a, lda: lda, b: b, ldb: ldb, layout: layout, c: c, ldc: ldc,
                    accumulate: accumulate)
            }
        }

        private static func blasCall(
            m: Int, n: Int, k: Int,
            a: UnsafePointer<Float>, lda: Int,
            b: UnsafePointer<Float>, ldb: Int, layout: GEMMRightLayout,
            c: UnsafeMutablePointer<Float>, ldc: Int, accumulate: Bool
        ) {
            let beta: Float = accumulate ? 1 : 0
            let limit = Int(Int32.max)
            precondition(
                m <= limit && n <= limit && k <= limit && lda <= limit && ldb <= limit && ldc <= limit,
                "GEMM: dimension exceeds the 32-bit BLAS interface")
            if m == 1 {
                // One row: y = Bᵀ·x as a matrix-vector product, which BLAS runs faster than a 1-row sgemm.
                switch layout {
                case .kByN:
                    sgemv(CblasRowMajor, CblasTrans, Int32(k), Int32(n), 1, b, Int32(ldb), a, 1, beta, c, 1)
                case .nByK:
                    sgemv(CblasRowMajor, CblasNoTrans, Int32(n), Int32(k), 1, b, Int32(ldb), a, 1, beta, c, 1)
                }
                return
            }
            sgemm(
                CblasRowMajor, CblasNoTrans, layout == .kByN ? CblasNoTrans : CblasTrans,
                Int32(m), Int32(n), Int32(k), 1, a, Int32(lda), b, Int32(ldb), beta, c, Int32(ldc))
        }
    #endif

    /// The dependency-free loop nest behind ``multiply(m:n:k:a:lda:b:ldb:layout:c:ldc:)`` on platforms without
    /// BLAS; same contract. Kept callable everywhere so tests cover it.
    package static func portableMultiply(
        m: Int, n: Int, k: Int,
        a: UnsafePointer<Float>, lda: Int,
        b: UnsafePointer<Float>, ldb: Int, layout: GEMMRightLayout,
        c: UnsafeMutablePointer<Float>, ldc: Int, accumulate: Bool = false
    ) {
        switch layout {
        case .kByN:
            // Row of C += a(i,p) · row p of B: the inner loop runs over contiguous j and vectorizes.
            for i in 0..<m {
                let cRow = c + i * ldc
                if !accumulate { cRow.update(repeating: 0, count: n) }
                let aRow = a + i * lda
                for p in 0..<k {
                    let scale = aRow[p]
                    let bRow = b + p * ldb
                    for j in 0..<n { cRow[j] += scale * bRow[j] }
                }
            }
        case .nByK:
            for i in 0..<m {
                let aRow = a + i * lda
                for j in 0..<n {
                    let bRow = b + j * ldb
                    var sum: Float = 0
                    for p in 0..<k { sum += aRow[p] * bRow[p] }
                    c[i * ldc + j] = accumulate ? c[i * ldc + j] + sum : sum
                }
            }
        }
    }
}

#if canImport(Accelerate)
    extension GEMM {
        /// Accelerate is part of the SDK: always there.
        package static var isBLASAvailable: Bool { true }
        /// Whether the BLAS behind ``multiply(m:n:k:a:lda:b:ldb:layout:c:ldc:accumulate:)`` is Accelerate: yes.
        package static var callsAccelerate: Bool { true }
    }
    // Through CPureVisionAccelerate, where ACCELERATE_NEW_LAPACK selects the current interface (the classic
    // `cblas_sgemm` / `cblas_sgemv` are deprecated since iOS 16.4 / macOS 13.3). Row-major only, like every call here.
    private func sgemm(
        _ order: CBLAS_ORDER, _ transA: CBLAS_TRANSPOSE, _ transB: CBLAS_TRANSPOSE, _ m: Int32, _ n: Int32, _ k: Int32,
        _ alpha: Float, _ a: UnsafePointer<Float>, _ lda: Int32, _ b: UnsafePointer<Float>, _ ldb: Int32, _ beta: Float,
        _ c: UnsafeMutablePointer<Float>, _ ldc: Int32
    ) {
        precondition(order == CblasRowMajor, "GEMM: row-major calls only")
        purevision_accelerate_sgemm(
            transA == CblasTrans ? 1 : 0, transB == CblasTrans ? 1 : 0, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    }
    private func sgemv(
        _ order: CBLAS_ORDER, _ trans: CBLAS_TRANSPOSE, _ m: Int32, _ n: Int32, _ alpha: Float,
        _ a: UnsafePointer<Float>, _ lda: Int32, _ x: UnsafePointer<Float>, _ incX: Int32, _ beta: Float,
        _ y: UnsafeMutablePointer<Float>, _ incY: Int32
    ) {
        precondition(order == CblasRowMajor, "GEMM: row-major calls only")
        purevision_accelerate_sgemv(trans == CblasTrans ? 1 : 0, m, n, alpha, a, lda, x, incX, beta, y, incY)
    }
#elseif canImport(CPureVisionOpenBLAS)
    extension GEMM {
        /// Whether an OpenBLAS library could be opened (see `OpenBLASLibrary`); without one, the portable loops run.
        package static var isBLASAvailable: Bool { OpenBLASLibrary.functions != nil }
        /// Whether the BLAS behind ``multiply(m:n:k:a:lda:b:ldb:layout:c:ldc:accumulate:)`` is Accelerate: no,
        /// OpenBLAS.
        package static var callsAccelerate: Bool { false }

        /// How many threads the loaded OpenBLAS would use for one call; 1 means it started none of its own.
        package static var blasThreadCount: Int? { OpenBLASLibrary.functions.map { Int($0.threadCount()) } }

        /// The CPU type whose kernels the loaded OpenBLAS runs, or nil without OpenBLAS.
        package static var blasCoreName: String? {
            OpenBLASLibrary.functions.flatMap { $0.coreName() }.map { String(cString: $0) }
        }
    }
    private func sgemm(
        _ order: CBLAS_ORDER, _ transA: CBLAS_TRANSPOSE, _ transB: CBLAS_TRANSPOSE, _ m: Int32, _ n: Int32, _ k: Int32,
        _ alpha: Float, _ a: UnsafePointer<Float>, _ lda: Int32, _ b: UnsafePointer<Float>, _ ldb: Int32, _ beta: Float,
        _ c: UnsafeMutablePointer<Float>, _ ldc: Int32
    ) {
        OpenBLASLibrary.functions?.sgemm(order, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    }
    private func sgemv(
        _ order: CBLAS_ORDER, _ trans: CBLAS_TRANSPOSE, _ m: Int32, _ n: Int32, _ alpha: Float,
        _ a: UnsafePointer<Float>, _ lda: Int32, _ x: UnsafePointer<Float>, _ incX: Int32, _ beta: Float,
        _ y: UnsafeMutablePointer<Float>, _ incY: Int32
    ) {
        OpenBLASLibrary.functions?.sgemv(order, trans, m, n, alpha, a, lda, x, incX, beta, y, incY)
    }
#endif
