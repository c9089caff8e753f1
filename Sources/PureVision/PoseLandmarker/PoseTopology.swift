/// The 33 BlazePose landmarks, by index (MediaPipe's `pose_topology.h`). Left and right are the subject's own.
public enum PoseLandmarkName: Int, Sendable, CaseIterable, Hashable {
    case nose = 0
    case leftEyeInner, leftEye, leftEyeOuter
    case rightEyeInner, rightEye, rightEyeOuter
    case leftEar, rightEar
    case mouthLeft, mouthRight
    case leftShoulder, rightShoulder
    case leftElbow, rightElbow
    case leftWrist, rightWrist
    case leftPinky, rightPinky
    case leftIndex, rightIndex
    case leftThumb, rightThumb
    case leftHip, rightHip
    case leftKnee, rightKnee
    case leftAnkle, rightAnkle
    case leftHeel, rightHeel
    case leftFootIndex, rightFootIndex
}

/// Two landmarks a skeleton drawing joins, by index.
public struct PoseConnection: Sendable, Hashable {
    /// Index of the first landmark.
    public let start: Int
    /// Index of the second landmark.
    public let end: Int

    /// Creates a connection.
    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    /// MediaPipe's 35 pose connections (`PoseLandmarksConnections.POSE_LANDMARKS`), in its order: face, arms and
    /// hands, torso, legs and feet.
    public static let poseLandmarks: [PoseConnection] = [
        (0, 1), (1, 2), (2, 3), (3, 7), (0, 4), (4, 5), (5, 6), (6, 8), (9, 10), (11, 12), (11, 13), (13, 15),
        (15, 17), (15, 19), (15, 21), (17, 19), (12, 14), (14, 16), (16, 18), (16, 20), (16, 22), (18, 20), (11, 23),
        (12, 24), (23, 24), (23, 25), (24, 26), (25, 27), (26, 28), (27, 29), (28, 30), (29, 31), (30, 32), (27, 31),
        (28, 32),
    ].map { PoseConnection(start: $0.0, end: $0.1) }
}
