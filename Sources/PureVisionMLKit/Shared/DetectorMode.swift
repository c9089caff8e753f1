import PureVision

/// ML Kit's detector modes: `PoseDetectorMode`, `SegmenterMode` and `ObjectDetectorMode` (`MLKPoseDetectorMode` …),
/// one enumeration here, with their two cases.
public enum DetectorMode: Sendable, Hashable {
    /// Consecutive frames of a video or camera stream (ML Kit's default): the detector carries state from frame to
    /// frame, as the native task's video mode does.
    case stream
    /// Unrelated images: each is analysed on its own.
    case singleImage

    /// The native task's running mode for this mode.
    var runningMode: RunningMode { self == .stream ? .video : .image }
}

/// ML Kit's `PoseDetectorMode`: `.stream` or `.singleImage`.
public typealias PoseDetectorMode = DetectorMode
/// ML Kit's `SegmenterMode`: `.stream` or `.singleImage`.
public typealias SegmenterMode = DetectorMode
/// ML Kit's `ObjectDetectorMode`: `.stream` or `.singleImage`.
public typealias ObjectDetectorMode = DetectorMode
