import PureVisionTFLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// MediaPipe's face geometry pipeline (`face_geometry/libs/geometry_pipeline.cc`) as FaceLandmarker runs it: the
/// pose of the canonical face model that matches a face's screen landmarks under a perspective camera.
///
/// The environment is the graph's default: origin at the top-left corner, vertical field of view 63°, near plane
/// 1, far plane 10000 (MediaPipe only validates far). For a W × H image, with landmarks 0–467:
/// 1. Frustum at the near plane: `h = 2·near·tanf(0.5·(π/180)·fov)`, `w = W·h/H`; left/right = ∓w/2,
///    bottom/top = ∓h/2.
/// 2. Screen → near plane: `y ← 1 − y`, `x ← x·w + left`, `y ← y·h + bottom`, `z ← z·w`.
/// 3. Pass 1: z negated (screen space is left-handed, metric space right-handed), Procrustes fit of the canonical
///    model; `s₁` = norm of the fit's first column.
/// 4. Pass 2: `z ← ((z − mean z) + near) / s₁`, `x ← x·z / near`, `y ← y·z / near`, z negated, fit → `s₂`.
/// 5. Final: step 4 with `s₁·s₂`, fit → the pose matrix (canonical model → camera, centimetres).
///
/// A face whose landmarks lie within 1e-3 (normalized) of their mean gets no matrix, as in MediaPipe.
struct FaceGeometryPipeline: Sendable {
    /// The canonical model's vertex positions, 3 × N column-major, in centimetres.
    let canonical: [Float]
    /// The square roots of the Procrustes weights, one per vertex.
    let sqrtWeights: [Float]

    static let verticalFieldOfViewDegrees: Float = 63
    static let near: Float = 1
    /// The screen-landmark count the pipeline fits (the mesh without the irises).
    static let landmarkCount = 468
    /// The spread below which MediaPipe considers a face too compact to fit.
    static let compactnessThreshold: Float = 1e-3

    /// Prepares the pipeline from the bundle's metadata.
    /// - Throws: `VisionTaskError.model` when the canonical model does not have one vertex per landmark or its
    ///   weights sum to (almost) zero.
    init(metadata: GeometryPipelineMetadata) throws(VisionTaskError) {
        let count = metadata.vertexCount
        guard count == Self.landmarkCount else {
            throw .model(
                "geometry_pipeline_metadata_landmarks.binarypb: the canonical face model has \(count) vertices; the "
                    + "face landmarks give \(Self.landmarkCount)")
        }
        guard metadata.inputSource != .faceDetectionPipeline else {
            throw .model(
                "geometry_pipeline_metadata_landmarks.binarypb: input_source FACE_DETECTION_PIPELINE is for "
                    + "face-detector keypoints, not face landmarks")
        }
        var positions = [Float](repeating: 0, count: 3 * count)
        for i in 0..<count {
            let p = metadata.position(of: i)
            positions[3 * i] = p.x
            positions[3 * i + 1] = p.y
            positions[3 * i + 2] = p.z
        }
        var weights = [Float](repeating: 0, count: count)
        for entry in metadata.procrustesLandmarkBasis { weights[Int(entry.landmarkID)] = entry.weight }
        var total: Float = 0
        for weight in weights { total += weight }
        guard total > ProcrustesSolver.epsilon else {
            throw .model("geometry_pipeline_metadata_landmarks.binarypb: the landmark weights sum to \(total)")
        }
        canonical = positions
        sqrtWeights = weights.map { $0.squareRoot() }
    }

    /// The pose matrix (row-major 4 × 4) of one face, or nil when its landmarks are too compact.
    /// - Parameters:
    ///   - landmarks: the face's landmarks; the first 468 are used.
    ///   - imageWidth: the input image's width in pixels (unrotated).
    ///   - imageHeight: its height.
    /// - Throws: `VisionTaskError.model` when a Procrustes fit fails (MediaPipe fails the frame).
    func poseMatrix(
        landmarks: [NormalizedLandmark], imageWidth: Int, imageHeight: Int
    ) throws(VisionTaskError) -> TransformMatrix? {
        let count = Self.landmarkCount
        guard landmarks.count >= count, imageWidth > 0, imageHeight > 0 else { return nil }
        if Self.isTooCompact(landmarks.prefix(count)) { return nil }

        let degreesToRadians = Float.pi / 180
        let near = Self.near
        let heightAtNear = 2 * near * tanf(0.5 * degreesToRadians * Self.verticalFieldOfViewDegrees)
        let widthAtNear = Float(imageWidth) * heightAtNear / Float(imageHeight)
        let left = -0.5 * widthAtNear
        let right = 0.5 * widthAtNear
        let bottom = -0.5 * heightAtNear
        let top = 0.5 * heightAtNear
        let xScale = right - left
        let yScale = top - bottom

        var screen = [Float](repeating: 0, count: 3 * count)
        for i in 0..<count {
            let landmark = landmarks[i]
            screen[3 * i] = landmark.x * xScale + left
            screen[3 * i + 1] = (1 - landmark.y) * yScale + bottom
            screen[3 * i + 2] = landmark.z * xScale
        }
        var depthSum: Float = 0
        for i in 0..<count { depthSum += screen[3 * i + 2] }
        let depthOffset = depthSum / Float(count)

        do throws(ProcrustesSolver.Failure) {
            var intermediate = screen
            for i in 0..<count { intermediate[3 * i + 2] = -intermediate[3 * i + 2] }
            let firstScale = ProcrustesSolver.firstColumnNorm(
                try ProcrustesSolver.solve(source: canonical, target: intermediate, sqrtWeights: sqrtWeights))

            intermediate = Self.unprojected(screen, depthOffset: depthOffset, scale: firstScale)
            let secondScale = ProcrustesSolver.firstColumnNorm(
                try ProcrustesSolver.solve(source: canonical, target: intermediate, sqrtWeights: sqrtWeights))

            let metric = Self.unprojected(screen, depthOffset: depthOffset, scale: firstScale * secondScale)
            let pose = try ProcrustesSolver.solve(source: canonical, target: metric, sqrtWeights: sqrtWeights)
            return TransformMatrix(rows: 4, columns: 4, data: pose)
        } catch {
            throw .model("face geometry: \(error)")
        }
    }

    /// `MoveAndRescaleZ`, `UnprojectXY` and the change of handedness.
    static func unprojected(_ screen: [Float], depthOffset: Float, scale: Float) -> [Float] {
        var points = screen
        let near = Self.near
        for i in 0..<(points.count / 3) {
            let z = ((points[3 * i + 2] - depthOffset) + near) / scale
            points[3 * i] = points[3 * i] * z / near
            points[3 * i + 1] = points[3 * i + 1] * z / near
            points[3 * i + 2] = -z
        }
        return points
    }

    /// MediaPipe's `IsScreenLandmarkListTooCompact`: the largest (x, y) distance from the running mean is at most
    /// 1e-3.
    static func isTooCompact(_ landmarks: ArraySlice<NormalizedLandmark>) -> Bool {
        var meanX: Float = 0
        var meanY: Float = 0
        for (i, landmark) in landmarks.enumerated() {
            meanX += (landmark.x - meanX) / Float(i + 1)
            meanY += (landmark.y - meanY) / Float(i + 1)
        }
        var maxSquaredDistance: Float = 0
        for landmark in landmarks {
            let dx = landmark.x - meanX
            let dy = landmark.y - meanY
            maxSquaredDistance = max(maxSquaredDistance, dx * dx + dy * dy)
        }
        return maxSquaredDistance.squareRoot() <= compactnessThreshold
    }
}
