/// What the options of the tasks that find hands share, with MediaPipe's defaults: the hand landmarker's options,
/// which `HandLandmarkerOptions` and `GestureRecognizerOptions` each declare (`MPPHandLandmarkerOptions`,
/// `MPPGestureRecognizerOptions`) and which the gesture recognizer hands to its own hand landmarker.
///
/// A base class on purpose, for those two options classes only (its own initializer is `TaskOptions`'s `init()`);
/// create the task's own options class.
public class HandTaskOptions: RunningModeTaskOptions {
    /// The most hands reported. Default 1.
    public var numHands: Int = 1
    /// Palm detections scoring below this are ignored. Default 0.5.
    public var minHandDetectionConfidence: Float = 0.5
    /// A hand is reported only when its presence score exceeds this. Default 0.5.
    public var minHandPresenceConfidence: Float = 0.5
    /// Video and live stream: the overlap threshold for adding a newly detected hand to the tracked ones. Default 0.5.
    public var minTrackingConfidence: Float = 0.5
}
