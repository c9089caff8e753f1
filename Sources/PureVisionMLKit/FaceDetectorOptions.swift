import Foundation
import PureVision

/// ML Kit's `FaceDetectorPerformanceMode` (`MLKFaceDetectorPerformanceMode`): `.fast` (short-range BlazeFace) or
/// `.accurate` (full-range BlazeFace). PureVision's own enumeration, with the same cases.
public typealias FaceDetectorPerformanceMode = PureVision.FacePerformanceMode
/// ML Kit's `FaceDetectorLandmarkMode`: `.none` or `.all`.
public typealias FaceDetectorLandmarkMode = PureVision.FaceLandmarkMode
/// ML Kit's `FaceDetectorContourMode`: `.none` or `.all`.
public typealias FaceDetectorContourMode = PureVision.FaceContourMode
/// ML Kit's `FaceDetectorClassificationMode`: `.none` or `.all`.
public typealias FaceDetectorClassificationMode = PureVision.FaceClassificationMode

/// Options of a `FaceDetector`: ML Kit's `FaceDetectorOptions` (`MLKFaceDetectorOptions`) with its defaults, and
/// Firebase ML Vision's `VisionFaceDetectorOptions` (the same class under that name).
public final class FaceDetectorOptions {
    /// Detector choice. Default `.fast`.
    public var performanceMode: FaceDetectorPerformanceMode = .fast
    /// Report the 10 landmarks. Default `.none`.
    public var landmarkMode: FaceDetectorLandmarkMode = .none
    /// Report the 15 contours. Default `.none`.
    public var contourMode: FaceDetectorContourMode = .none
    /// Report the smiling and eyes-open probabilities. Default `.none`.
    public var classificationMode: FaceDetectorClassificationMode = .none
    /// The smallest face reported, as its width over the image width. Default 0.1.
    public var minFaceSize: CGFloat = 0.1
    /// Give faces tracking IDs kept across images while they move. Default false.
    public var isTrackingEnabled: Bool = false
    /// Beyond ML Kit (whose models ship inside the SDK): the directory holding `face_detection_short_range.tflite`,
    /// `face_detection_full_range_sparse.tflite` and `face_landmark.tflite`. Nil (the default) looks, in order, in
    /// the `PUREVISION_MODEL_DIRECTORY` environment variable, the main bundle's resources when they hold
    /// `face_landmark.tflite`, and `Models` under the current directory.
    public var modelDirectory: String?

    /// Creates options with ML Kit's defaults.
    public init() {}

    /// PureVision's options for these values (image mode).
    var native: FaceAnalyzerOptions {
        FaceAnalyzerOptions(
            modelDirectory: modelDirectory
                ?? ModelLocation.defaultDirectory(holding: FaceAnalyzerOptions.landmarkModelFile),
            performanceMode: performanceMode,
            landmarkMode: landmarkMode, contourMode: contourMode, classificationMode: classificationMode,
            minFaceSize: Float(minFaceSize), isTrackingEnabled: isTrackingEnabled)
    }
}
