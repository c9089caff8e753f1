#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Head Euler angles from the 468-point face mesh, in degrees, with ML Kit's conventions: X positive when the face
/// looks up, Y positive when it turns towards the image's right, Z positive when it is rotated counter-clockwise in
/// the image.
///
/// Method (geometric, no model of its own):
/// 1. Mesh points to pixels, `(x·W, y·H, z·W)` (MediaPipe's z shares x's scale), then to a right-handed frame with
///    y up and z towards the camera: `(x, −y, −z)`.
/// 2. Face axes: **x̂** is the normalized sum of five left–right vectors across the face (subject's right → left:
///    outer eye corners 33→263, inner eye corners 133→362, mouth corners 61→291, face outline at the ears 234→454,
///    outer brow ends 70→300); **ŷ** is chin → forehead (152→10) with its x̂ component removed, normalized;
///    **ẑ** = x̂ × ŷ (out of the face).
/// 3. R = [x̂ ŷ ẑ] is decomposed as Rz(γ)·Ry(β)·Rx(α): β = asin(−R₂₀), α = atan2(R₂₁, R₂₂), γ = atan2(R₁₀, R₀₀).
///    Then Y = β (ẑ turning towards +x, the image's right), Z = γ (counter-clockwise), X = α − `pitchOffset`.
///
/// The chin–forehead line of a face looking straight at the camera leans back by a few degrees, which the mesh
/// shows as a positive α; `pitchOffset` removes it. Its value is the mean α of four frontal photos (grace_hopper
/// 5.6°, astronaut 10.9°, opencvdoc_face 10.4° and a frontal portrait from the shared testdata's local-only set,
/// not committed, 5.6°): so X is within ±3° on those photos, and a person's own head carriage moves it by a few
/// degrees. Y and Z need no calibration (left–right symmetry). What is measured: in-plane rotations up to ±45°
/// (Z follows the rotation within 1.5° once the photo's own tilt is subtracted), the yaw sign on one turned face
/// (−17°) and its mirror image (+14°). Large yaw and any pitch are not measured against a reference.
public enum HeadPose {
    /// The α of a frontal face, subtracted from X (degrees); see the type's documentation.
    public static let pitchOffset: Float = 8.1

    /// Mesh index pairs (subject's right, subject's left) whose vectors define the face's x axis.
    static let leftRightPairs: [(Int, Int)] = [(33, 263), (133, 362), (61, 291), (234, 454), (70, 300)]
    /// Chin and forehead mesh indices, the face's up direction.
    static let chin = 152
    static let forehead = 10

    /// Euler angles (X, Y, Z) in degrees from the 468 normalized mesh landmarks of an image of `imageWidth` ×
    /// `imageHeight` pixels; nil when the mesh is degenerate (fewer than 468 points, or collapsed axes).
    public static func eulerAngles(
        mesh: [NormalizedLandmark], imageWidth: Int, imageHeight: Int
    ) -> (x: Float, y: Float, z: Float)? {
        guard mesh.count >= FaceMeshTopology.meshPointCount else { return nil }
        let width = Double(imageWidth)
        let height = Double(imageHeight)
        func point(_ index: Int) -> SIMD3<Double> {
            let p = mesh[index]
            return SIMD3(Double(p.x) * width, -Double(p.y) * height, -Double(p.z) * width)
        }
        var xAxis = SIMD3<Double>(0, 0, 0)
        for (right, left) in leftRightPairs { xAxis += point(left) - point(right) }
        guard let ex = normalized(xAxis) else { return nil }
        let up = point(forehead) - point(chin)
        guard let ey = normalized(up - ex * dot(up, ex)) else { return nil }
        let ez = cross(ex, ey)
        // R's columns are ex, ey, ez: R[row][column].
        let r20 = ex.z
        let r21 = ey.z
        let r22 = ez.z
        let r10 = ex.y
        let r00 = ex.x
        let beta = asin(min(max(-r20, -1), 1))
        let alpha = atan2(r21, r22)
        let gamma = atan2(r10, r00)
        let degrees = 180 / Double.pi
        return (Float(alpha * degrees) - pitchOffset, Float(beta * degrees), Float(gamma * degrees))
    }

    static func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }

    static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    static func normalized(_ v: SIMD3<Double>) -> SIMD3<Double>? {
        let length = dot(v, v).squareRoot()
        guard length.isFinite, length > 1e-9 else { return nil }
        return v / length
    }
}
