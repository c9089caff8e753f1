/// Maps detections from tensor-normalized to image-normalized coordinates with the preprocessing MATRIX, as
/// MediaPipe's `DetectionProjectionCalculator` does.
public enum DetectionProjection {
    /// Projects every keypoint and the four box corners with the matrix's 2-D affine part
    /// (`x' = x·m[0] + y·m[1] + m[3]`, `y' = x·m[4] + y·m[5] + m[7]`, float, in that order), then replaces the
    /// box with the axis-aligned bounds of the projected corners (`width = right − left`).
    ///
    /// - Parameters:
    ///   - detections: detections in tensor-normalized coordinates.
    ///   - matrix: 16 floats, a 4×4 row-major matrix from tensor-normalized to image-normalized coordinates (the
    ///     preprocessing's MATRIX output).
    /// - Throws: `DetectionError.invalidMatrix` unless `matrix` has 16 elements.
    public static func project(_ detections: [NormalizedDetection], matrix: [Float]) throws(DetectionError)
        -> [NormalizedDetection]
    {
        guard matrix.count == 16 else { throw .invalidMatrix(count: matrix.count) }
        let m0 = matrix[0]
        let m1 = matrix[1]
        let m3 = matrix[3]
        let m4 = matrix[4]
        let m5 = matrix[5]
        let m7 = matrix[7]
        func project(_ x: Float, _ y: Float) -> (x: Float, y: Float) {
            (x * m0 + y * m1 + m3, x * m4 + y * m5 + m7)
        }
        return detections.map { detection in
            var result = detection
            for k in result.keypoints.indices {
                let p = project(result.keypoints[k].x, result.keypoints[k].y)
                result.keypoints[k] = Keypoint(x: p.x, y: p.y)
            }
            let xMin = detection.xMin
            let yMin = detection.yMin
            // The projected corners, in MediaPipe's order.
            var bounds = PointBounds.empty
            bounds.include(project(xMin, yMin))
            bounds.include(project(xMin + detection.width, yMin))
            bounds.include(project(xMin + detection.width, yMin + detection.height))
            bounds.include(project(xMin, yMin + detection.height))
            result.xMin = bounds.minX
            result.yMin = bounds.minY
            result.width = bounds.maxX - bounds.minX
            result.height = bounds.maxY - bounds.minY
            return result
        }
    }
}
