#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The segmentation output of the pose landmark model, turned into a mask over the whole input image as MediaPipe
/// 0.10.14 does on the CPU: `TensorsToSegmentationCalculator` (sigmoid), `InverseMatrixCalculator` on the crop's
/// matrix and `WarpAffineCalculator` (OpenCV 3.4 `warpAffine`, bilinear, zero border).
enum PoseMaskProjection {
    /// `p = 1 / (double(expf(−v)) + 1)` rounded to float (the sum and the division are in double in the C++).
    static func probability(_ logit: Float) -> Float { Float(1.0 / (Double(expf(-logit)) + 1.0)) }

    /// Writes the image-size mask for one pose.
    ///
    /// - Parameters:
    ///   - logits: `maskWidth · maskHeight` segmentation logits of the crop.
    ///   - cropMatrix: the crop's 4×4 row-major matrix from tensor-normalized to image-normalized coordinates.
    /// - Returns: `imageWidth · imageHeight` values in [0, 1]; pixels the crop does not cover are 0.
    ///
    /// The inverse matrix maps image-normalized coordinates back into the crop; OpenCV's matrix is
    /// `diag(mw, mh, 1, 1) · inverse · diag(1/W, 1/H, 1, 1)` in float. For each output pixel (x, y) OpenCV's
    /// fixed point gives `X = (cvRound((m1·y + m2)·1024) + 16 + cvRound(m0·x·1024)) >> 5` (Y likewise): the
    /// source pixel `X >> 5` and the fraction `(X & 31) / 32`; the value is the float bilinear sum
    /// `v00·(1−fy)(1−fx) + v01·(1−fy)fx + v10·fy(1−fx) + v11·fy·fx`, left to right, neighbours outside the mask 0.
    ///
    /// The inverse is Eigen 3.4's float SSE 4×4 inverse (`InverseSize4.h`) evaluated on the crop matrix's shape;
    /// see `inverseAffineRows`.
    static func project(
        logits: UnsafeBufferPointer<Float>, maskWidth: Int, maskHeight: Int, cropMatrix: [Float],
        imageWidth: Int, imageHeight: Int
    ) -> [Float] {
        var output = [Float](repeating: 0, count: imageWidth * imageHeight)
        guard cropMatrix.count == 16, logits.count >= maskWidth * maskHeight, maskWidth > 0, maskHeight > 0 else {
            return output
        }
        var mask = [Float](repeating: 0, count: maskWidth * maskHeight)
        for index in mask.indices { mask[index] = probability(logits[index]) }

        let (i0, i1, i3, i4, i5, i7) = inverseAffineRows(cropMatrix)
        guard [i0, i1, i3, i4, i5, i7].allSatisfy(\.isFinite) else { return output }
        let sourceWidth = Float(maskWidth)
        let sourceHeight = Float(maskHeight)
        let inverseWidth = 1 / Float(imageWidth)
        let inverseHeight = 1 / Float(imageHeight)
        let m0 = Double((sourceWidth * i0) * inverseWidth)
        let m1 = Double((sourceWidth * i1) * inverseHeight)
        let m2 = Double(sourceWidth * i3)
        let m3 = Double((sourceHeight * i4) * inverseWidth)
        let m4 = Double((sourceHeight * i5) * inverseHeight)
        let m5 = Double(sourceHeight * i7)
        guard [m0, m1, m2, m3, m4, m5].allSatisfy(\.isFinite) else { return output }

        var columnX = [Int](repeating: 0, count: imageWidth)
        var columnY = [Int](repeating: 0, count: imageWidth)
        for x in 0..<imageWidth {
            columnX[x] = cvRound(m0 * Double(x) * 1024)
            columnY[x] = cvRound(m3 * Double(x) * 1024)
        }
        mask.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                for y in 0..<imageHeight {
                    let rowX = cvRound((m1 * Double(y) + m2) * 1024) + 16
                    let rowY = cvRound((m4 * Double(y) + m5) * 1024) + 16
                    for x in 0..<imageWidth {
                        let fixedX = (rowX &+ columnX[x]) >> 5
                        let fixedY = (rowY &+ columnY[x]) >> 5
                        let sx = fixedX >> 5
                        let sy = fixedY >> 5
                        if sx >= maskWidth || sx + 1 < 0 || sy >= maskHeight || sy + 1 < 0 { continue }
                        let fx = Float(fixedX & 31) / 32
                        let fy = Float(fixedY & 31) / 32
                        let w00 = (1 - fy) * (1 - fx)
                        let w01 = (1 - fy) * fx
                        let w10 = fy * (1 - fx)
                        let w11 = fy * fx
                        func value(_ column: Int, _ row: Int) -> Float {
                            column >= 0 && column < maskWidth && row >= 0 && row < maskHeight
                                ? source[row * maskWidth + column] : 0
                        }
                        destination[y * imageWidth + x] =
                            value(sx, sy) * w00 + value(sx + 1, sy) * w01 + value(sx, sy + 1) * w10
                            + value(sx + 1, sy + 1) * w11
                    }
                }
            }
        }
        return output
    }

    /// The entries 0, 1, 3 (first row) and 4, 5, 7 (second row) of the inverse of the crop matrix
    /// `[[m0 m1 0 m3] [m4 m5 0 m7] [0 0 m10 0] [0 0 0 1]]`, rounded as Eigen 3.4's float SSE 4×4 inverse rounds
    /// them (its block algorithm with the zero blocks dropped, which leaves every remaining operation unchanged):
    /// `det = ((m5·m0) − (m1·m4))·m10`, `r = 1/det`, `i0 = (m5·m10)·r`, `i1 = −((m1·m10)·r)`,
    /// `i3 = −((m10·((m5·m3) − (m1·m7)))·r)`, `i4 = −((m4·m10)·r)`, `i5 = (m0·m10)·r`,
    /// `i7 = −((m10·((m0·m7) − (m4·m3)))·r)`, all float. A double inverse rounded once differs in the last bit
    /// often enough to move mask pixels by 1/32 of a sampling step.
    static func inverseAffineRows(_ m: [Float]) -> (Float, Float, Float, Float, Float, Float) {
        let determinantA = m[5] * m[0] - m[1] * m[4]
        let reciprocal = 1 / (determinantA * m[10])
        let i0 = (m[5] * m[10]) * reciprocal
        let i1 = -((m[1] * m[10]) * reciprocal)
        let i3 = -((m[10] * (m[5] * m[3] - m[1] * m[7])) * reciprocal)
        let i4 = -((m[4] * m[10]) * reciprocal)
        let i5 = (m[0] * m[10]) * reciprocal
        let i7 = -((m[10] * (m[0] * m[7] - m[4] * m[3])) * reciprocal)
        return (i0, i1, i3, i4, i5, i7)
    }

    /// OpenCV's `cvRound` (`saturate_cast<int>` of a double): round half to even, saturated to Int32.
    @inline(__always)
    static func cvRound(_ value: Double) -> Int {
        guard value.isFinite else { return value > 0 ? Int(Int32.max) : Int(Int32.min) }
        let clamped = min(max(value, Double(Int32.min)), Double(Int32.max))
        return Int(FixedPointWarp.roundedToNearestEven(clamped))
    }
}
