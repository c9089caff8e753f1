/// The 33 BlazePose landmarks, by index (MediaPipe's `pose_topology.h`). Left and right are the subject's own.
public enum PoseLandmarkName: Int, Sendable, CaseIterable, Hashable {
    /// 0: the nose.
    case nose = 0
    /// 1–3: the left eye's inner corner, centre and outer corner.
    case leftEyeInner, leftEye, leftEyeOuter
    /// 4–6: the right eye's inner corner, centre and outer corner.
    case rightEyeInner, rightEye, rightEyeOuter
    /// 7–8: the ears.
    case leftEar, rightEar
    /// 9–10: the mouth's corners.
    case mouthLeft, mouthRight
    /// 11–12: the shoulders.
    case leftShoulder, rightShoulder
    /// 13–14: the elbows.
    case leftElbow, rightElbow
    /// 15–16: the wrists.
    case leftWrist, rightWrist
    /// 17–18: the little fingers' knuckles.
    case leftPinky, rightPinky
    /// 19–20: the index fingers' knuckles.
    case leftIndex, rightIndex
    /// 21–22: the thumbs.
    case leftThumb, rightThumb
    /// 23–24: the hips.
    case leftHip, rightHip
    /// 25–26: the knees.
    case leftKnee, rightKnee
    /// 27–28: the ankles.
    case leftAnkle, rightAnkle
    /// 29–30: the heels.
    case leftHeel, rightHeel
    /// 31–32: the tips of the feet (big toes).
    case leftFootIndex, rightFootIndex
}

extension LandmarkConnection {
    /// MediaPipe's 35 pose connections (`PoseLandmarksConnections.POSE_LANDMARKS`), in its order: face, arms and
    /// hands, torso, legs and feet.
    public static let poseLandmarks: [PoseConnection] = [
        (0, 1), (1, 2), (2, 3), (3, 7), (0, 4), (4, 5), (5, 6), (6, 8), (9, 10), (11, 12), (11, 13), (13, 15),
        (15, 17), (15, 19), (15, 21), (17, 19), (12, 14), (14, 16), (16, 18), (16, 20), (16, 22), (18, 20), (11, 23),
        (12, 24), (23, 24), (23, 25), (24, 26), (25, 27), (26, 28), (27, 29), (28, 30), (29, 31), (30, 32), (27, 31),
        (28, 32),
    ].map { PoseConnection(start: $0.0, end: $0.1) }
}
