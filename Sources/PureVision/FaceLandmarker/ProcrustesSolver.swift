/// MediaPipe's weighted orthogonal Procrustes solver (`face_geometry/libs/procrustes_solver.cc`, after D. Akca,
/// "Generalized Procrustes analysis and its applications in photogrammetry", 2003, §2.4): the similarity transform
/// (scale · rotation, translation) that best maps source points onto target points under per-point weights.
///
/// Everything is float32 and follows the evaluation order of the Eigen code MediaPipe 0.10.14 was built with (SSE,
/// no fused multiply-add), because the depth direction of the face fit is ill-conditioned and a different
/// summation order moves the translation by up to 3e-4 cm:
/// - whole-matrix and whole-vector sums (`sum()` of a contiguous expression) are Eigen's 4-lane vectorized
///   reduction (`packetSum`); row sums of a 3 × N matrix are sequential;
/// - 3 × 3 by 3 × N products evaluate each 3-term dot as `x0 + (x1 + x2)`; the 3 × 3 design matrix `Bw · Cᵀ` is a
///   sequential dot over the N points;
/// - the SVD is Eigen's two-sided Jacobi SVD of a 3 × 3 float matrix (`JacobiSVD3`).
///
/// Points are 3 × N, column-major: point j is `points[3j ..< 3j + 3]`.
struct ProcrustesSolver: Sendable {
    /// MediaPipe's `kAbsoluteErrorEps`.
    static let epsilon: Float = 1e-9

    /// Why a fit failed (MediaPipe fails the frame with the same checks).
    enum Failure: Error, Equatable, CustomStringConvertible {
        case designMatrixTooSmall
        case scaleDenominatorTooSmall
        case scaleTooSmall
        case notFinite

        var description: String {
            switch self {
            case .designMatrixTooSmall: "the design matrix norm is too small"
            case .scaleDenominatorTooSmall: "the scale expression denominator is too small"
            case .scaleTooSmall: "the scale is too small"
            case .notFinite: "the points are not finite"
            }
        }
    }

    /// The 4 × 4 transform, row-major, `[[s·R, t], [0, 0, 0, 1]]`, that maps `source` onto `target`.
    /// - Parameters:
    ///   - source: 3 × N points, column-major.
    ///   - target: 3 × N points, column-major.
    ///   - sqrtWeights: the square roots of the N point weights.
    static func solve(source: [Float], target: [Float], sqrtWeights: [Float]) throws(Failure) -> [Float] {
        let count = sqrtWeights.count
        var weightedSource = [Float](repeating: 0, count: 3 * count)
        var weightedTarget = [Float](repeating: 0, count: 3 * count)
        for j in 0..<count {
            for r in 0..<3 {
                weightedSource[3 * j + r] = source[3 * j + r] * sqrtWeights[j]
                weightedTarget[3 * j + r] = target[3 * j + r] * sqrtWeights[j]
            }
        }
        let totalWeight = packetSum(count) { sqrtWeights[$0] * sqrtWeights[$0] }

        var centerOfMass: [Float] = [0, 0, 0]
        for r in 0..<3 {
            var sum: Float = 0
            for j in 0..<count { sum += weightedSource[3 * j + r] * sqrtWeights[j] }
            centerOfMass[r] = sum / totalWeight
        }
        var centered = [Float](repeating: 0, count: 3 * count)
        for j in 0..<count {
            for r in 0..<3 { centered[3 * j + r] = weightedSource[3 * j + r] - centerOfMass[r] * sqrtWeights[j] }
        }

        // Design matrix D = Bw · Cᵀ (3 × 3, row-major).
        var design = [Float](repeating: 0, count: 9)
        for i in 0..<3 {
            for k in 0..<3 {
                var sum: Float = 0
                for j in 0..<count { sum += weightedTarget[3 * j + i] * centered[3 * j + k] }
                design[3 * i + k] = sum
            }
        }
        var squaredNorm: Float = 0
        for value in design { squaredNorm += value * value }
        guard squaredNorm.isFinite else { throw .notFinite }
        guard squaredNorm.squareRoot() > epsilon else { throw .designMatrixTooSmall }
        let rotation = optimalRotation(design)

        // Scale: Σ (R·C ∘ Bw) / Σ (C ∘ Aw), both over the 3N values in column-major order.
        let numerator = packetSum(3 * count) { index in
            let j = index / 3
            let i = index - 3 * j
            return dot3(rotation, row: i, centered, column: j) * weightedTarget[index]
        }
        let denominator = packetSum(3 * count) { centered[$0] * weightedSource[$0] }
        guard denominator > epsilon else { throw .scaleDenominatorTooSmall }
        guard numerator / denominator > epsilon else { throw .scaleTooSmall }
        let scale = numerator / denominator
        let scaledRotation = rotation.map { scale * $0 }

        var translation: [Float] = [0, 0, 0]
        for i in 0..<3 {
            var sum: Float = 0
            for j in 0..<count {
                let difference = weightedTarget[3 * j + i] - dot3(scaledRotation, row: i, weightedSource, column: j)
                sum += difference * sqrtWeights[j]
            }
            translation[i] = sum / totalWeight
        }
        return [
            scaledRotation[0], scaledRotation[1], scaledRotation[2], translation[0],
            scaledRotation[3], scaledRotation[4], scaledRotation[5], translation[1],
            scaledRotation[6], scaledRotation[7], scaledRotation[8], translation[2],
            0, 0, 0, 1,
        ]
    }

    /// The norm of a row-major 4 × 4 matrix's first column, as Eigen's one-packet reduction:
    /// `√((a₀² + a₂²) + (a₁² + a₃²))`.
    static func firstColumnNorm(_ matrix: [Float]) -> Float {
        let a0 = matrix[0] * matrix[0]
        let a1 = matrix[4] * matrix[4]
        let a2 = matrix[8] * matrix[8]
        let a3 = matrix[12] * matrix[12]
        return ((a0 + a2) + (a1 + a3)).squareRoot()
    }

    /// `U · Vᵀ` of the SVD of `design`, with U's last column negated when that would be a reflection.
    static func optimalRotation(_ design: [Float]) -> [Float] {
        var svd = JacobiSVD3(design)
        if determinant(svd.u) * determinant(transposed(svd.v)) < 0 {
            for r in 0..<3 { svd.u[3 * r + 2] = -svd.u[3 * r + 2] }
        }
        let vTransposed = transposed(svd.v)
        var rotation = [Float](repeating: 0, count: 9)
        for i in 0..<3 {
            for k in 0..<3 {
                rotation[3 * i + k] =
                    svd.u[3 * i] * vTransposed[k]
                    + (svd.u[3 * i + 1] * vTransposed[3 + k]
                        + svd.u[3 * i + 2] * vTransposed[6 + k])
            }
        }
        return rotation
    }

    /// Row `row` of a row-major 3 × 3 matrix times column `column` of a column-major 3 × N one, as
    /// `x₀ + (x₁ + x₂)`.
    @inline(__always)
    static func dot3(_ matrix: [Float], row: Int, _ points: [Float], column: Int) -> Float {
        matrix[3 * row] * points[3 * column]
            + (matrix[3 * row + 1] * points[3 * column + 1] + matrix[3 * row + 2] * points[3 * column + 2])
    }

    /// Eigen's 3 × 3 determinant: `m₀₀(m₁₁m₂₂ − m₁₂m₂₁) − m₀₁(m₁₀m₂₂ − m₁₂m₂₀) + m₀₂(m₁₀m₂₁ − m₁₁m₂₀)`.
    static func determinant(_ m: [Float]) -> Float {
        m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6])
    }

    static func transposed(_ m: [Float]) -> [Float] { [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]] }

    /// Eigen's vectorized sum (SSE, 4 float lanes) of `count` values: lanes accumulate in two 4-wide registers over
    /// blocks of 8, which are added, plus a trailing block of 4; the lanes then combine as `(l₀ + l₂) + (l₁ + l₃)`
    /// and any last 1–3 values are added in order. Fewer than 4 values are summed in order.
    static func packetSum(_ count: Int, _ value: (Int) -> Float) -> Float {
        let alignedSize = count / 4 * 4
        guard alignedSize > 0 else {
            guard count > 0 else { return 0 }
            var sum = value(0)
            for i in 1..<count { sum += value(i) }
            return sum
        }
        func packet(_ start: Int) -> SIMD4<Float> {
            SIMD4(value(start), value(start + 1), value(start + 2), value(start + 3))
        }
        let alignedSize2 = count / 8 * 8
        var first = packet(0)
        if alignedSize > 4 {
            var second = packet(4)
            var index = 8
            while index < alignedSize2 {
                first += packet(index)
                second += packet(index + 4)
                index += 8
            }
            first += second
            if alignedSize > alignedSize2 { first += packet(alignedSize2) }
        }
        var sum = (first[0] + first[2]) + (first[1] + first[3])
        for i in alignedSize..<count { sum += value(i) }
        return sum
    }
}

/// Eigen's `JacobiSVD<Matrix3f>` with full U and V (two-sided Jacobi; a square matrix needs no QR
/// preconditioner), in float32 and Eigen's operation order. Matrices are row-major 3 × 3.
struct JacobiSVD3 {
    /// Left singular vectors, as columns.
    var u: [Float]
    /// Right singular vectors, as columns.
    var v: [Float]
    /// Singular values, descending.
    var singularValues: [Float]

    /// A plane rotation `(c, s)`, applied to two vectors x, y as `x' = c·x + s·y`, `y' = −s·x + c·y`.
    struct Rotation {
        var c: Float
        var s: Float
        var transposed: Rotation { Rotation(c: c, s: -s) }
    }

    init(_ matrix: [Float]) {
        var scale: Float = 0
        for value in matrix { scale = max(scale, abs(value)) }
        if !scale.isFinite || scale == 0 { scale = 1 }
        var work = matrix.map { $0 / scale }
        u = [1, 0, 0, 0, 1, 0, 0, 0, 1]
        v = u
        let considerAsZero = Float.leastNormalMagnitude
        let precision = 2 * Float.ulpOfOne
        var maxDiagonal = max(abs(work[0]), abs(work[4]), abs(work[8]))
        var finished = false
        // Each sweep acts only while an off-diagonal entry exceeds the threshold; a bound guards against a
        // non-converging input (NaN compares false and ends the loop at once).
        var sweeps = 0
        while !finished && sweeps < 64 {
            finished = true
            sweeps += 1
            for p in 1..<3 {
                for q in 0..<p {
                    let threshold = max(considerAsZero, precision * maxDiagonal)
                    guard abs(work[3 * p + q]) > threshold || abs(work[3 * q + p]) > threshold else { continue }
                    finished = false
                    let (left, right) = Self.twoByTwo(work, p, q)
                    Self.applyToRows(&work, p, q, left)
                    Self.applyToColumns(&u, p, q, left)
                    Self.applyToColumns(&work, p, q, right.transposed)
                    Self.applyToColumns(&v, p, q, right.transposed)
                    maxDiagonal = max(maxDiagonal, max(abs(work[4 * p]), abs(work[4 * q])))
                }
            }
        }
        var values: [Float] = [0, 0, 0]
        for i in 0..<3 {
            let a = work[4 * i]
            values[i] = abs(a)
            if a < 0 { for r in 0..<3 { u[3 * r + i] = -u[3 * r + i] } }
        }
        values = values.map { $0 * scale }
        for i in 0..<3 {
            // maxCoeff keeps the first maximum.
            var position = i
            for k in (i + 1)..<3 where values[k] > values[position] { position = k }
            if values[position] == 0 { break }
            if position != i {
                values.swapAt(i, position)
                for r in 0..<3 {
                    u.swapAt(3 * r + i, 3 * r + position)
                    v.swapAt(3 * r + i, 3 * r + position)
                }
            }
        }
        singularValues = values
    }

    /// Eigen's `real_2x2_jacobi_svd`: the left and right rotations that diagonalize the (p, q) block.
    static func twoByTwo(_ work: [Float], _ p: Int, _ q: Int) -> (left: Rotation, right: Rotation) {
        var m00 = work[4 * p]
        var m01 = work[3 * p + q]
        var m10 = work[3 * q + p]
        var m11 = work[4 * q]
        let t = m00 + m11
        let d = m10 - m01
        var first = Rotation(c: 1, s: 0)
        if abs(d) >= Float.leastNormalMagnitude {
            let u = t / d
            let root = (1 + u * u).squareRoot()
            first = Rotation(c: u / root, s: 1 / root)
        }
        // Rotate the block's rows by `first`.
        let (r00, r10) = (first.c * m00 + first.s * m10, -first.s * m00 + first.c * m10)
        let (r01, r11) = (first.c * m01 + first.s * m11, -first.s * m01 + first.c * m11)
        (m00, m10, m01, m11) = (r00, r10, r01, r11)
        let right = makeJacobi(x: m00, y: m01, z: m11)
        let rightT = right.transposed
        let left = Rotation(
            c: first.c * rightT.c - first.s * rightT.s, s: first.c * rightT.s + first.s * rightT.c)
        return (left, right)
    }

    /// Eigen's `JacobiRotation::makeJacobi(x, y, z)` for the symmetric block [[x, y], [y, z]].
    static func makeJacobi(x: Float, y: Float, z: Float) -> Rotation {
        let denominator = 2 * abs(y)
        guard denominator >= Float.leastNormalMagnitude else { return Rotation(c: 1, s: 0) }
        let tau = (x - z) / denominator
        let w = (tau * tau + 1).squareRoot()
        let t: Float = tau > 0 ? 1 / (tau + w) : 1 / (tau - w)
        let signT: Float = t > 0 ? 1 : -1
        let n = 1 / (t * t + 1).squareRoot()
        return Rotation(c: n, s: -signT * (y / abs(y)) * abs(t) * n)
    }

    /// Rows p and q of a row-major 3 × 3 matrix rotated by `r` (Eigen's `applyOnTheLeft(p, q, r)`).
    static func applyToRows(_ m: inout [Float], _ p: Int, _ q: Int, _ r: Rotation) {
        rotate(&m, r, 3 * p, 3 * q, step: 1)
    }

    /// Columns p and q of a row-major 3 × 3 matrix rotated by `r` (Eigen's `applyOnTheRight(p, q, rᵀ)`).
    static func applyToColumns(_ m: inout [Float], _ p: Int, _ q: Int, _ r: Rotation) {
        rotate(&m, r, p, q, step: 3)
    }

    /// The three entries `x` from `first` and `y` from `second`, `step` apart, become `c·x + s·y` and `−s·x + c·y`;
    /// nothing changes under the identity rotation.
    private static func rotate(_ m: inout [Float], _ r: Rotation, _ first: Int, _ second: Int, step: Int) {
        if r.c == 1 && r.s == 0 { return }
        for k in 0..<3 {
            let x = m[first + k * step]
            let y = m[second + k * step]
            m[first + k * step] = r.c * x + r.s * y
            m[second + k * step] = -r.s * x + r.c * y
        }
    }
}
