/// ML Kit's 10 face landmark types (`FaceLandmarkType`). Left and right are the subject's.
public enum FaceLandmarkType: String, Sendable, Hashable, Codable, CaseIterable {
    /// The mouth bottom landmark.
    case mouthBottom
    /// The mouth left landmark.
    case mouthLeft
    /// The mouth right landmark.
    case mouthRight
    /// The left eye landmark.
    case leftEye
    /// The right eye landmark.
    case rightEye
    /// The left ear landmark.
    case leftEar
    /// The right ear landmark.
    case rightEar
    /// The left cheek landmark.
    case leftCheek
    /// The right cheek landmark.
    case rightCheek
    /// The nose base landmark.
    case noseBase
}

/// ML Kit's 15 face contour types (`FaceContourType`), in the order of ML Kit's all-points list (`face` is points
/// 0–35, then the eyebrows, eyes, the inner lip lines, the upper lip's top, the lower lip's bottom, the nose and the
/// cheeks). Left and right are the subject's.
public enum FaceContourType: String, Sendable, Hashable, Codable, CaseIterable {
    /// The face contour.
    case face
    /// The left eyebrow top contour.
    case leftEyebrowTop
    /// The left eyebrow bottom contour.
    case leftEyebrowBottom
    /// The right eyebrow top contour.
    case rightEyebrowTop
    /// The right eyebrow bottom contour.
    case rightEyebrowBottom
    /// The left eye contour.
    case leftEye
    /// The right eye contour.
    case rightEye
    /// The upper lip bottom contour.
    case upperLipBottom
    /// The lower lip top contour.
    case lowerLipTop
    /// The upper lip top contour.
    case upperLipTop
    /// The lower lip bottom contour.
    case lowerLipBottom
    /// The nose bridge contour.
    case noseBridge
    /// The nose bottom contour.
    case noseBottom
    /// The left cheek contour.
    case leftCheek
    /// The right cheek contour.
    case rightCheek
}
