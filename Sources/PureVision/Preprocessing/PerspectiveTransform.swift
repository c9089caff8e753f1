#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A rotated rectangle in pixels: MediaPipe's `RotatedRect` (centre, size, rotation in radians).
package struct RotatedRect: Sendable, Equatable {
    package var centerX: Float
    package var centerY: Float
    package var width: Float
    package var height: Float
    package var rotation: Float

    package init(centerX: Float, centerY: Float, width: Float, height: Float, rotation: Float) {
        self.centerX = centerX
        self.centerY = centerY
        self.width = width
        self.height = height
        self.rotation = rotation
    }
}

/// The perspective matrices of OpenCV 3.4.10's `getPerspectiveTransform` and `invert`, with its exact arithmetic.
///
/// Matrices are 3×3 row-major Double in lanes 0…8 of a `SIMD16<Double>` (lanes 9…15 are 0), so that no call
/// allocates.
package enum PerspectiveTransform {
    /// The corners of `rect` as OpenCV's `RotatedRect::points` computes them, interleaved x, y for corners 0…3.
    ///
    /// The angle goes through degrees in Float as MediaPipe passes it (`float(θ·180f / π)`), then back to radians in
    /// Double; `a = float(sin)·0.5`, `b = float(cos)·0.5`; corner 0 = (cx − a·h − b·w, cy + b·h − a·w), corner 1 =
    /// (cx + a·h − b·w, cy − b·h − a·w), corners 2 and 3 mirror 0 and 1 through the centre. With rotation 0, corner
    /// 0 is the bottom-left and the corners go clockwise on screen.
    package static func corners(of rect: RotatedRect) -> SIMD8<Float> {
        let degrees = Float(Double(rect.rotation * 180) / Double.pi)
        let radians = Double(degrees) * Double.pi / 180
        let b = Float(cos(radians)) * 0.5
        let a = Float(sin(radians)) * 0.5
        let cx = rect.centerX
        let cy = rect.centerY
        let w = rect.width
        let h = rect.height
        let x0 = cx - a * h - b * w
        let y0 = cy + b * h - a * w
        let x1 = cx + a * h - b * w
        let y1 = cy - b * h - a * w
        return SIMD8(x0, y0, x1, y1, 2 * cx - x0, 2 * cy - y0, 2 * cx - x1, 2 * cy - y1)
    }

    /// The matrix mapping the four `source` points to the four `destination` points (both interleaved x, y).
    ///
    /// The 8×8 system has the products of Float coordinates rounded to Float and widened, and is solved by Gaussian
    /// elimination with partial pivoting in Double in OpenCV's order (`LUImpl`). A pivot below 100·ε makes OpenCV
    /// give up and return the zero matrix with `m[8] = 1`; so does this function.
    package static func solve(source: SIMD8<Float>, destination: SIMD8<Float>) -> SIMD16<Double> {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 72) { buffer -> SIMD16<Double> in
            guard let storage = buffer.baseAddress else { return SIMD16() }
            let a = storage
            let b = storage + 64
            for i in 0..<8 { b[i] = 0 }
            for i in 0..<64 { a[i] = 0 }
            for i in 0..<4 {
                let sx = source[2 * i]
                let sy = source[2 * i + 1]
                let dx = destination[2 * i]
                let dy = destination[2 * i + 1]
                a[i * 8 + 0] = Double(sx)
                a[i * 8 + 1] = Double(sy)
                a[i * 8 + 2] = 1
                a[i * 8 + 6] = Double(-sx * dx)
                a[i * 8 + 7] = Double(-sy * dx)
                a[(i + 4) * 8 + 3] = Double(sx)
                a[(i + 4) * 8 + 4] = Double(sy)
                a[(i + 4) * 8 + 5] = 1
                a[(i + 4) * 8 + 6] = Double(-sx * dy)
                a[(i + 4) * 8 + 7] = Double(-sy * dy)
                b[i] = Double(dx)
                b[i + 4] = Double(dy)
            }
            var result = SIMD16<Double>()
            result[8] = 1
            guard luSolve(a, b, count: 8) else { return result }
            for i in 0..<8 { result[i] = b[i] }
            return result
        }
    }

    /// Solves `a·x = b` in place (`x` replaces `b`); false when a pivot is below 100·ε (OpenCV's `LU64f`).
    private static func luSolve(_ a: UnsafeMutablePointer<Double>, _ b: UnsafeMutablePointer<Double>, count m: Int)
        -> Bool
    {
        let epsilon = Double.ulpOfOne * 100
        for i in 0..<m {
            var k = i
            for j in (i + 1)..<max(m, i + 1) where abs(a[j * m + i]) > abs(a[k * m + i]) { k = j }
            if abs(a[k * m + i]) < epsilon { return false }
            if k != i {
                for j in i..<m { swap(&a[i * m + j], &a[k * m + j]) }
                swap(&b[i], &b[k])
            }
            let d = -1 / a[i * m + i]
            for j in (i + 1)..<max(m, i + 1) {
                let alpha = a[j * m + i] * d
                for c in (i + 1)..<m { a[j * m + c] += alpha * a[i * m + c] }
                b[j] += alpha * b[i]
            }
        }
        for i in stride(from: m - 1, through: 0, by: -1) {
            var s = b[i]
            for c in (i + 1)..<max(m, i + 1) { s -= a[i * m + c] * b[c] }
            b[i] = s / a[i * m + i]
        }
        return true
    }

    /// The inverse by cofactors over the determinant, as OpenCV's `invert` for 3×3 Double matrices; the zero matrix
    /// when the determinant is 0.
    package static func inverted(_ m: SIMD16<Double>) -> SIMD16<Double> {
        let det =
            m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6])
            + m[2] * (m[3] * m[7] - m[4] * m[6])
        var t = SIMD16<Double>()
        guard det != 0 else { return t }
        let d = 1 / det
        t[0] = (m[4] * m[8] - m[5] * m[7]) * d
        t[1] = (m[2] * m[7] - m[1] * m[8]) * d
        t[2] = (m[1] * m[5] - m[2] * m[4]) * d
        t[3] = (m[5] * m[6] - m[3] * m[8]) * d
        t[4] = (m[0] * m[8] - m[2] * m[6]) * d
        t[5] = (m[2] * m[3] - m[0] * m[5]) * d
        t[6] = (m[3] * m[7] - m[4] * m[6]) * d
        t[7] = (m[1] * m[6] - m[0] * m[7]) * d
        t[8] = (m[0] * m[4] - m[1] * m[3]) * d
        return t
    }
}
