#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Smiling and eyes-open scores from the 468-point face mesh's geometry, each a logistic function of one ratio of
/// 3D distances (pixels, `(x·W, y·H, z·W)`), so they do not change with the face's size or in-plane rotation.
///
/// **Smile.** r = mouth width (corners 61–291) ÷ outer eye-corner distance (33–263); score = σ(30·(r − 0.64)).
/// A smile pulls the mouth corners apart. Calibration data (r measured on MediaPipe's mesh): smiling, teeth
/// showing — astronaut 0.71 (score 0.89) and a portrait from the shared testdata's local-only set, not committed,
/// 0.69 (0.83); neutral or closed-mouth — grace_hopper 0.58 (0.14) and opencvdoc_face 0.59 (0.20, a faint
/// closed-mouth smile). The centre 0.64 lies midway between the two groups; the slope spreads them to about
/// 0.15–0.2 and 0.85–0.9. Limits: four adult faces is a tiny calibration set; a wide neutral mouth, speech or a
/// yawn, and strong yaw (which shortens both distances unequally) move r; a smile that does not widen the mouth
/// is missed. Treat the score as an ordering of expressions, not a calibrated probability.
///
/// **Eyes open.** Eye aspect ratio EAR = mean of three lid distances (right eye 159–145, 158–153, 160–144; left
/// eye 386–374, 385–380, 387–373) ÷ eye width (33–133; 263–362); score = σ(50·(EAR − 0.15)). Open eyes in the
/// calibration photos measure 0.24–0.33 (scores ≥ 0.98). The closed end is not calibrated on photos (no
/// permissively licensed closed-eye face was available): the centre 0.15 assumes closed lids bring the ratio
/// below about 0.1, as the lid points then nearly coincide. Limits: narrow or squinting eyes, glasses' rims and
/// strong pitch lower EAR.
public enum FaceClassification {
    /// The smile ratio at which the smiling probability is 0.5.
    public static let smileCentre: Float = 0.64
    /// The logistic's slope over the smile ratio.
    public static let smileSlope: Float = 30
    /// The eye aspect ratio at which the eye-open probability is 0.5.
    public static let eyeOpenCentre: Float = 0.15
    /// The logistic's slope over the eye aspect ratio.
    public static let eyeOpenSlope: Float = 50

    /// Mouth width over outer eye-corner distance.
    public static func smileRatio(mesh: [NormalizedLandmark], imageWidth: Int, imageHeight: Int) -> Float? {
        let p = Points(mesh: mesh, width: imageWidth, height: imageHeight)
        guard p.isComplete else { return nil }
        let eyes = p.distance(33, 263)
        guard eyes > 0 else { return nil }
        return p.distance(61, 291) / eyes
    }

    /// Eye aspect ratio of the subject's left eye (`left == true`) or right eye.
    public static func eyeAspectRatio(
        mesh: [NormalizedLandmark], imageWidth: Int, imageHeight: Int, left: Bool
    ) -> Float? {
        let p = Points(mesh: mesh, width: imageWidth, height: imageHeight)
        guard p.isComplete else { return nil }
        let lids = left ? [(386, 374), (385, 380), (387, 373)] : [(159, 145), (158, 153), (160, 144)]
        let corners = left ? (263, 362) : (33, 133)
        let width = p.distance(corners.0, corners.1)
        guard width > 0 else { return nil }
        return lids.reduce(0) { $0 + p.distance($1.0, $1.1) } / (3 * width)
    }

    /// The three scores (smiling, left eye open, right eye open), nil when the mesh is degenerate.
    public static func probabilities(
        mesh: [NormalizedLandmark], imageWidth: Int, imageHeight: Int
    ) -> (smiling: Float, leftEyeOpen: Float, rightEyeOpen: Float)? {
        guard let smile = smileRatio(mesh: mesh, imageWidth: imageWidth, imageHeight: imageHeight),
            let left = eyeAspectRatio(mesh: mesh, imageWidth: imageWidth, imageHeight: imageHeight, left: true),
            let right = eyeAspectRatio(mesh: mesh, imageWidth: imageWidth, imageHeight: imageHeight, left: false)
        else { return nil }
        return (
            logistic(smileSlope * (smile - smileCentre)),
            logistic(eyeOpenSlope * (left - eyeOpenCentre)),
            logistic(eyeOpenSlope * (right - eyeOpenCentre))
        )
    }

    static func logistic(_ t: Float) -> Float { 1 / (1 + expf(-t)) }

    /// Mesh points scaled to pixels (z by the width, as MediaPipe normalizes it).
    struct Points {
        let mesh: [NormalizedLandmark]
        let width: Float
        let height: Float

        init(mesh: [NormalizedLandmark], width: Int, height: Int) {
            self.mesh = mesh
            self.width = Float(width)
            self.height = Float(height)
        }

        var isComplete: Bool { mesh.count >= FaceMeshTopology.meshPointCount }

        func distance(_ a: Int, _ b: Int) -> Float {
            let dx = (mesh[a].x - mesh[b].x) * width
            let dy = (mesh[a].y - mesh[b].y) * height
            let dz = (mesh[a].z - mesh[b].z) * width
            return (dx * dx + dy * dy + dz * dz).squareRoot()
        }
    }
}
