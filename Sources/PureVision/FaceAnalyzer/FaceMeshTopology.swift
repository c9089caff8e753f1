/// The documented map from MediaPipe's 468-point face mesh to ML Kit's landmarks and contours.
///
/// Mesh indices are MediaPipe's (`face_landmark.tflite` output order). The contour chains follow the mesh's own
/// feature outlines (MediaPipe's `FACEMESH_FACE_OVAL`, `…_EYE`, `…_EYEBROW`, `FACEMESH_LIPS`), walked in order;
/// their point counts are ML Kit's (133 in total). Point order, for an upright, non-mirrored face:
///
/// | contour | points | mesh indices, in order |
/// |---|---|---|
/// | face | 36 | from the forehead top (10), clockwise on screen |
/// | left / right eyebrow top | 5 + 5 | upper brow line, image left → right |
/// | left / right eyebrow bottom | 5 + 5 | lower brow line, image left → right |
/// | left / right eye | 16 + 16 | from the eye's image-left corner, clockwise on screen (upper lid first) |
/// | upper lip top | 11 | outer upper lip, right mouth corner (61) → left mouth corner (291) |
/// | upper lip bottom | 9 | inner upper lip without the inner corners |
/// | lower lip top | 9 | inner lower lip without the inner corners |
/// | lower lip bottom | 9 | outer lower lip without the mouth corners |
/// | nose bridge | 2 | between the eyes (168), nose tip (1) |
/// | nose bottom | 3 | right alar base (98), subnasale (2), left alar base (327) |
/// | left / right cheek | 1 + 1 | cheek centre (425 / 205) |
///
/// Landmarks: mouth bottom 17 (lower lip's outer midpoint), mouth left 291, mouth right 61, eyes = mean of the
/// eye's 16 contour points, ears 454 / 234 (the face outline at ear level, next to the tragion; the mesh does not
/// cover the ears), cheeks 425 / 205, nose base 2.
///
/// Which landmarks are reported follows ML Kit's table by head yaw Y (degrees): |Y| ≤ 12 both eyes, both cheeks,
/// both mouth corners, mouth bottom, nose base (no ears); 12 < |Y| ≤ 36 the visible side's eye, mouth corner, ear
/// and cheek, the nose base, the other eye and the mouth bottom; |Y| > 36 only the visible side's eye, mouth
/// corner, ear and cheek and the nose base. (ML Kit's "ear tip" in the middle band has no mesh counterpart: the
/// ear point is used.)
public enum FaceMeshTopology {
    /// Points of the 468-point mesh.
    public static let meshPointCount = 468

    /// Mesh indices of every contour, in `FaceContourType` order.
    public static let contours: [(type: FaceContourType, indices: [Int])] = [
        (
            .face,
            [
                10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377,
                152, 148, 176, 149, 150, 136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109,
            ]
        ),
        (.leftEyebrowTop, [336, 296, 334, 293, 300]),
        (.leftEyebrowBottom, [285, 295, 282, 283, 276]),
        (.rightEyebrowTop, [70, 63, 105, 66, 107]),
        (.rightEyebrowBottom, [46, 53, 52, 65, 55]),
        (.leftEye, [362, 398, 384, 385, 386, 387, 388, 466, 263, 249, 390, 373, 374, 380, 381, 382]),
        (.rightEye, [33, 246, 161, 160, 159, 158, 157, 173, 133, 155, 154, 153, 145, 144, 163, 7]),
        (.upperLipBottom, [191, 80, 81, 82, 13, 312, 311, 310, 415]),
        (.lowerLipTop, [95, 88, 178, 87, 14, 317, 402, 318, 324]),
        (.upperLipTop, [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291]),
        (.lowerLipBottom, [146, 91, 181, 84, 17, 314, 405, 321, 375]),
        (.noseBridge, [168, 1]),
        (.noseBottom, [98, 2, 327]),
        (.leftCheek, [425]),
        (.rightCheek, [205]),
    ]

    /// Mesh indices averaged for each landmark (one index for most).
    public static let landmarks: [(type: FaceLandmarkType, indices: [Int])] = [
        (.mouthBottom, [17]),
        (.mouthLeft, [291]),
        (.mouthRight, [61]),
        (.leftEye, contourIndices(.leftEye)),
        (.rightEye, contourIndices(.rightEye)),
        (.leftEar, [454]),
        (.rightEar, [234]),
        (.leftCheek, [425]),
        (.rightCheek, [205]),
        (.noseBase, [2]),
    ]

    /// The mesh indices of one contour.
    public static func contourIndices(_ type: FaceContourType) -> [Int] {
        contours.first { $0.type == type }?.indices ?? []
    }

    /// The landmark types ML Kit reports at head yaw `yaw` (degrees, positive towards the image's right, where
    /// the subject's left side turns away).
    public static func visibleLandmarks(yaw: Float) -> [FaceLandmarkType] {
        // Facing the image's left (Y < 0) shows the subject's left side.
        let left: [FaceLandmarkType] = [.leftEye, .mouthLeft, .leftEar, .noseBase, .leftCheek]
        let right: [FaceLandmarkType] = [.rightEye, .mouthRight, .rightEar, .noseBase, .rightCheek]
        let front: [FaceLandmarkType] = [
            .mouthBottom, .mouthLeft, .mouthRight, .leftEye, .rightEye, .leftCheek, .rightCheek, .noseBase,
        ]
        let shown: Set<FaceLandmarkType>
        switch yaw {
        case ..<(-36): shown = Set(left)
        case ..<(-12): shown = Set(left + [.rightEye, .mouthBottom])
        case ...12: shown = Set(front)
        case ...36: shown = Set(right + [.leftEye, .mouthBottom])
        default: shown = Set(right)
        }
        return FaceLandmarkType.allCases.filter { shown.contains($0) }
    }

    /// ML Kit landmarks from mesh points in pixels; only the types `visibleLandmarks(yaw:)` lists.
    static func landmarks(pixels: [VisionPoint], yaw: Float) -> [FaceLandmark] {
        let shown = Set(visibleLandmarks(yaw: yaw))
        return landmarks.filter { shown.contains($0.type) }.map { entry in
            var x: Float = 0
            var y: Float = 0
            for index in entry.indices {
                x += pixels[index].x
                y += pixels[index].y
            }
            let count = Float(entry.indices.count)
            return FaceLandmark(type: entry.type, position: VisionPoint(x: x / count, y: y / count))
        }
    }

    /// All 15 ML Kit contours from mesh points in pixels.
    static func contours(pixels: [VisionPoint]) -> [FaceContour] {
        contours.map { FaceContour(type: $0.type, points: $0.indices.map { pixels[$0] }) }
    }
}
