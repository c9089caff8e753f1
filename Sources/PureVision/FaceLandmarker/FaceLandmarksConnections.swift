/// MediaPipe's standard connection sets of the face landmarks (`FaceLandmarksConnections`). "Left" and "right" are
/// the subject's: on an unmirrored photo the left eye is on the image's right.
public enum FaceLandmarksConnections {
    /// MediaPipe Python's `FACE_LANDMARKS_CONTOURS`: lips, left eye, left eyebrow, right eye, right eyebrow and
    /// face oval (124 edges).
    public static let contours: [FaceLandmarkConnection] =
        lips + leftEye + leftEyebrow + rightEye + rightEyebrow + faceOval

    /// Both irises (8 edges).
    public static let irises: [FaceLandmarkConnection] = leftIris + rightIris

    /// Pairs consecutive values into edges.
    static func edges(_ flat: [Int]) -> [FaceLandmarkConnection] {
        stride(from: 0, to: flat.count - 1, by: 2).map { FaceLandmarkConnection(start: flat[$0], end: flat[$0 + 1]) }
    }
}
