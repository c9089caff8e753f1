import Foundation
import PureVisionEngine
import PureVisionImage
import PureVisionKernels

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// MediaPipe's legacy face mesh (`FaceLandmarkFrontCpu` with `use_prev_landmarks` false, i.e.
/// `solutions.face_mesh` in static-image mode, `refine_landmarks` off), run on every frame:
///
/// 1. BlazeFace detections (the `FaceDetector` pipeline: letterboxed [−1, 1] input, zero border, score ≥ 0.5,
///    weighted NMS at IoU 0.3), in image-normalized coordinates, best first.
/// 2. One ROI per detection (`FaceDetectionFrontDetectionToRoi`): the box's rect rotated so that keypoint 0 → 1
///    (the subject's right eye → left eye) is horizontal (target 0°), then `RectTransformation` with scale 1.5 and
///    `square_long`.
/// 3. `AssociationNormRectCalculator` (min similarity 0.5) over that list: each rect, in order, removes earlier
///    rects it overlaps with IoU > 0.5 and is appended.
/// 4. Per ROI (`FaceLandmarkCpu`): a 192×192 stretched crop with a replicated border, range [0, 1];
///    `face_landmark.tflite`; the face flag through a sigmoid must exceed 0.5 (`min_tracking_confidence`); the 1404
///    outputs become 468 landmarks `x/192, y/192, z/192`, projected through the ROI (rotation about its centre,
///    scaled by its size, z by its width).
///
/// Invariant: `faces` is only called by the task runner, which serialises calls, so the tracker needs no lock.
final class FaceMeshPipeline: @unchecked Sendable {
    let options: FaceAnalyzerOptions
    let detector: FaceDetectionPipeline
    let mesh: RegionLandmarkModel
    /// The thread pool of each model.
    var pools: [ThreadPool] { [detector.loaded.pool, mesh.model.pool] }
    let landmarksOutput: Int
    let flagOutput: Int
    private var tracker = FaceTracker()

    /// Model input side of `face_landmark.tflite`.
    static let meshInputSize = 192
    /// Face-flag probability a crop needs (`min_tracking_confidence`, default 0.5).
    static let presenceThreshold: Float = 0.5
    /// IoU above which a later face ROI replaces an earlier one.
    static let associationThreshold: Float = 0.5

    init(options: FaceAnalyzerOptions) throws(VisionTaskError) {
        try options.validate()
        self.options = options
        let directory = URL(fileURLWithPath: options.modelDirectory)
        let detectorFile =
            options.performanceMode == .fast
            ? FaceAnalyzerOptions.shortRangeDetectorFile : FaceAnalyzerOptions.fullRangeDetectorFile
        let pool = LoadedModel.sharedPool(threadCount: options.threadCount)
        detector = try FaceDetectionPipeline(
            options: FaceDetectorOptions(
                baseOptions: BaseOptions(
                    modelAssetPath: directory.appendingPathComponent(detectorFile).path,
                    threadCount: options.threadCount),
                minDetectionConfidence: 0.5, minSuppressionThreshold: 0.3), pool: pool)
        // The legacy graph fixes the range to [0, 1] whatever the metadata says.
        mesh = try RegionLandmarkModel(
            model: try LoadedModel.load(
                BaseOptions(
                    modelAssetPath: directory.appendingPathComponent(FaceAnalyzerOptions.landmarkModelFile).path,
                    threadCount: options.threadCount), pool: pool),
            role: "face landmark model", rangeFromMetadata: false)
        let input = mesh.inputSize
        guard input.width == Self.meshInputSize, input.height == Self.meshInputSize else {
            throw .model("the face landmark model must take a 192×192 input, this one takes \(input)")
        }
        let counts = mesh.outputElementCounts
        guard let landmarks = counts.firstIndex(of: 3 * FaceMeshTopology.meshPointCount),
            let flag = counts.firstIndex(of: 1), counts.count == 2
        else {
            throw .model(
                "the face landmark model must output 1404 landmark floats and 1 face flag; it outputs \(counts)")
        }
        landmarksOutput = landmarks
        flagOutput = flag
    }

    /// The 468-point meshes of every face in `image`, in detection order.
    func meshes(_ image: PixelImage) throws(VisionTaskError) -> [[NormalizedLandmark]] {
        let detections = try detector.detectNormalized(VisionFrame(image: image, processing: nil))
        let rects: [NormalizedRect]
        do throws(DetectionError) {
            rects = try DetectionsToRects.rects(
                of: detections, rotationVector: .faceDetection, imageWidth: image.width, imageHeight: image.height
            ).map {
                RectTransformation.transform(
                    $0, imageWidth: image.width, imageHeight: image.height, scaleX: 1.5, scaleY: 1.5,
                    squareLong: true)
            }
        } catch {
            throw .model("face rects: \(error)")
        }
        var result: [[NormalizedLandmark]] = []
        for rect in Self.associate(rects) {
            if let landmarks = try landmarks(image, rect: rect) { result.append(landmarks) }
        }
        return result
    }

    /// MediaPipe's `AssociationNormRectCalculator` on one list: each rect removes the earlier ones it overlaps by
    /// IoU > 0.5 (rotation ignored) and is appended.
    static func associate(_ rects: [NormalizedRect]) -> [NormalizedRect] {
        FaceLandmarkerPipeline.associate(rects, threshold: associationThreshold)
    }

    /// The mesh in one ROI; nil for an empty ROI or when the face flag does not pass.
    func landmarks(_ image: PixelImage, rect: NormalizedRect) throws(VisionTaskError) -> [NormalizedLandmark]? {
        try mesh.run(image, rect: rect) { session, transform throws(VisionTaskError) -> [NormalizedLandmark]? in
            let flag = session.floatOutput(flagOutput)[0]
            guard 1 / (1 + expf(-flag)) > Self.presenceThreshold else { return nil }
            return HandLandmarkDecoding.screenLandmarks(
                raw: session.floatOutput(landmarksOutput), inputWidth: Self.meshInputSize,
                inputHeight: Self.meshInputSize, letterbox: transform.letterboxPadding, rect: rect, normalizeZ: 1)
        }
    }

    /// ML Kit faces for one frame.
    func faces(_ frame: PixelImage) throws(VisionTaskError) -> [Face] {
        var image = frame
        image.orientation = frame.orientation.withoutMirroring
        let width = Float(image.width)
        let height = Float(image.height)
        var faces: [Face] = []
        for mesh in try meshes(image) {
            let pixels = mesh.map { VisionPoint(x: $0.x * width, y: $0.y * height) }
            var bounds = PointBounds.empty
            for point in pixels { bounds.include(x: point.x, y: point.y) }
            let frame = PixelRect(
                originX: bounds.minX, originY: bounds.minY, width: bounds.maxX - bounds.minX,
                height: bounds.maxY - bounds.minY)
            guard frame.width.isFinite, frame.width >= options.minFaceSize * width else { continue }
            var face = Face(frame: frame, meshLandmarks: mesh)
            let angles = HeadPose.eulerAngles(mesh: mesh, imageWidth: image.width, imageHeight: image.height)
            if options.reportsHeadAngles, let angles {
                face.headEulerAngleX = angles.x
                face.headEulerAngleY = angles.y
                face.headEulerAngleZ = angles.z
            }
            if options.landmarkMode == .all {
                face.landmarks = FaceMeshTopology.landmarks(pixels: pixels, yaw: angles?.y ?? 0)
            }
            if options.contourMode == .all {
                face.contours = FaceMeshTopology.contours(pixels: pixels)
            }
            if options.classificationMode == .all,
                let scores = FaceClassification.probabilities(
                    mesh: mesh, imageWidth: image.width, imageHeight: image.height)
            {
                face.smilingProbability = scores.smiling
                face.leftEyeOpenProbability = scores.leftEyeOpen
                face.rightEyeOpenProbability = scores.rightEyeOpen
            }
            faces.append(face)
        }
        if options.isTrackingEnabled {
            for (index, id) in tracker.update(faces.map(\.frame)).enumerated() { faces[index].trackingID = id }
        }
        return faces
    }
}

extension ImageOrientation {
    /// The orientation `FaceAnalyzer` analyzes a frame in: the orientation itself, or for a mirrored one the turn
    /// that shows the stored pixels upright without the mirror (`.upMirrored` → `.up`, `.downMirrored` → `.down`,
    /// `.leftMirrored` → `.right`, `.rightMirrored` → `.left`). A mirrored orientation says the frame is displayed
    /// mirrored (a front camera's preview); the stored pixels are the camera's unmirrored view, in which the
    /// subject's left and right are their own.
    var withoutMirroring: ImageOrientation {
        switch self {
        case .upMirrored: .up
        case .downMirrored: .down
        case .leftMirrored: .right
        case .rightMirrored: .left
        default: self
        }
    }
}
