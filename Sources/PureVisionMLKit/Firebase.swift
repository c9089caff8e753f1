/// Firebase ML Vision's entry point (`Vision` of FirebaseMLVision, `FIRVision`): `Vision.vision().faceDetector()`.
///
/// The name is Firebase's. In a file that also imports Apple's Vision framework, write `PureVisionMLKit.Vision`.
public final class Vision: Sendable {
    private init() {}

    private static let shared = Vision()

    /// Firebase's `Vision.vision()`: the shared instance (Firebase's default app).
    public static func vision() -> Vision { shared }

    /// Firebase's `faceDetector(options:)`.
    public func faceDetector(options: VisionFaceDetectorOptions) -> VisionFaceDetector {
        FaceDetector.faceDetector(options: options)
    }

    /// Firebase's `faceDetector()`: default options.
    public func faceDetector() -> VisionFaceDetector { FaceDetector.faceDetector() }
}

/// Firebase ML Vision's `VisionFaceDetector` (`FIRVisionFaceDetector`): ML Kit's `FaceDetector`, with
/// `process(_:completion:)` and `results(in:)`.
public typealias VisionFaceDetector = FaceDetector
/// Firebase's `VisionFaceDetectorOptions` (`FIRVisionFaceDetectorOptions`): ML Kit's `FaceDetectorOptions`.
public typealias VisionFaceDetectorOptions = FaceDetectorOptions
/// Firebase's `VisionFaceDetectorPerformanceMode`: `.fast`, `.accurate`.
public typealias VisionFaceDetectorPerformanceMode = FaceDetectorPerformanceMode
/// Firebase's `VisionFaceDetectorLandmarkMode`: `.none`, `.all`.
public typealias VisionFaceDetectorLandmarkMode = FaceDetectorLandmarkMode
/// Firebase's `VisionFaceDetectorContourMode`: `.none`, `.all`.
public typealias VisionFaceDetectorContourMode = FaceDetectorContourMode
/// Firebase's `VisionFaceDetectorClassificationMode`: `.none`, `.all`.
public typealias VisionFaceDetectorClassificationMode = FaceDetectorClassificationMode
/// Firebase's `VisionFace` (`FIRVisionFace`): ML Kit's `Face`.
public typealias VisionFace = Face
/// Firebase's `VisionFaceLandmark` (`FIRVisionFaceLandmark`): ML Kit's `FaceLandmark`.
public typealias VisionFaceLandmark = FaceLandmark
/// Firebase's `VisionFaceContour` (`FIRVisionFaceContour`): ML Kit's `FaceContour`.
public typealias VisionFaceContour = FaceContour
/// Firebase's `VisionFaceDetectionCallback`: the faces or an error.
public typealias VisionFaceDetectionCallback = FaceDetectionCallback
