import Foundation
import PureVision

/// Options of a `PoseDetector`: ML Kit's `PoseDetectorOptions` (`MLKPoseDetectorOptions`, the base SDK), with its
/// default.
///
/// Both this and `AccuratePoseDetectorOptions` run MediaPipe's `pose_landmarker_full.task` (BlazePose GHUM full), one
/// pose per image, as ML Kit detects the most prominent person; ML Kit's own base and accurate models are not
/// published.
public class PoseDetectorOptions {
    /// `.stream` (the default) tracks the person from frame to frame, as the native task's video mode does (pose
    /// detection runs again only when the person is lost; landmarks are smoothed); `.singleImage` analyses each image
    /// on its own.
    public var detectorMode: PoseDetectorMode = .stream
    /// Beyond ML Kit (whose models ship inside the SDK): the directory holding `pose_landmarker_full.task`. Nil (the
    /// default) looks, in order, in the `PUREVISION_MODEL_DIRECTORY` environment variable, the main bundle's resources
    /// when they hold the file, and `Models` under the current directory.
    public var modelDirectory: String?
    /// Tests: stream-mode frames `frameInterval` ms apart instead of the clock's times, to feed the native task the
    /// same timestamps.
    package var streamFrameInterval: Int?

    /// The model file these options run.
    static let modelFile = "pose_landmarker_full.task"

    /// Creates options with ML Kit's default (`.stream`).
    public init() {}

    /// PureVision's options for these values.
    var native: PoseLandmarkerOptions {
        PoseLandmarkerOptions(
            baseOptions: BaseOptions(modelAssetPath: ModelLocation.path(of: Self.modelFile, in: modelDirectory)),
            runningMode: detectorMode.runningMode, numPoses: 1)
    }
}

/// ML Kit's `AccuratePoseDetectorOptions` (`MLKAccuratePoseDetectorOptions`, the PoseDetectionAccurate SDK). It runs
/// the same model as `PoseDetectorOptions` (see there): results are identical.
public final class AccuratePoseDetectorOptions: PoseDetectorOptions {}
