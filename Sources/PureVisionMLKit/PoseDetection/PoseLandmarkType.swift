import PureVision

/// Which body point a pose landmark is: ML Kit's `PoseLandmarkType` (`MLKPoseLandmarkType`), its 33 values, in the
/// order of the native `PoseLandmarkName` (BlazePose's), whose index each one has (`rawValue`).
public enum PoseLandmarkType: Int, Sendable, Hashable, CaseIterable {
    /// The nose.
    case nose = 0
    /// The inner corner of the left eye.
    case leftEyeInner
    /// The left eye.
    case leftEye
    /// The outer corner of the left eye.
    case leftEyeOuter
    /// The inner corner of the right eye.
    case rightEyeInner
    /// The right eye.
    case rightEye
    /// The outer corner of the right eye.
    case rightEyeOuter
    /// The left ear.
    case leftEar
    /// The right ear.
    case rightEar
    /// The left corner of the mouth.
    case mouthLeft
    /// The right corner of the mouth.
    case mouthRight
    /// The left shoulder.
    case leftShoulder
    /// The right shoulder.
    case rightShoulder
    /// The left elbow.
    case leftElbow
    /// The right elbow.
    case rightElbow
    /// The left wrist.
    case leftWrist
    /// The right wrist.
    case rightWrist
    /// The left pinky knuckle (BlazePose's `leftPinky`).
    case leftPinkyFinger
    /// The right pinky knuckle.
    case rightPinkyFinger
    /// The left index knuckle (BlazePose's `leftIndex`).
    case leftIndexFinger
    /// The right index knuckle.
    case rightIndexFinger
    /// The left thumb knuckle.
    case leftThumb
    /// The right thumb knuckle.
    case rightThumb
    /// The left hip.
    case leftHip
    /// The right hip.
    case rightHip
    /// The left knee.
    case leftKnee
    /// The right knee.
    case rightKnee
    /// The left ankle.
    case leftAnkle
    /// The right ankle.
    case rightAnkle
    /// The left heel.
    case leftHeel
    /// The right heel.
    case rightHeel
    /// The tip of the left foot (BlazePose's `leftFootIndex`).
    case leftToe
    /// The tip of the right foot.
    case rightToe

    /// The same point in PureVision's naming.
    public var native: PoseLandmarkName {
        // The two enumerations list BlazePose's 33 points in the same order (a test checks every case).
        PoseLandmarkName(rawValue: rawValue) ?? .nose
    }
}
