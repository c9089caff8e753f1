/// ML Kit's 10 face landmark types (`FaceLandmarkType`). Left and right are the subject's.
public enum FaceLandmarkType: String, Sendable, Hashable, Codable, CaseIterable {
    case mouthBottom
    case mouthLeft
    case mouthRight
    case leftEye
    case rightEye
    case leftEar
    case rightEar
    case leftCheek
    case rightCheek
    case noseBase
}

/// ML Kit's 15 face contour types (`FaceContourType`), in the order of ML Kit's all-points list (`face` is points
/// 0–35, then the eyebrows, eyes, the inner lip lines, the upper lip's top, the lower lip's bottom, the nose and the
/// cheeks). Left and right are the subject's.
public enum FaceContourType: String, Sendable, Hashable, Codable, CaseIterable {
    case face
    case leftEyebrowTop
    case leftEyebrowBottom
    case rightEyebrowTop
    case rightEyebrowBottom
    case leftEye
    case rightEye
    case upperLipBottom
    case lowerLipTop
    case upperLipTop
    case lowerLipBottom
    case noseBridge
    case noseBottom
    case leftCheek
    case rightCheek
}
