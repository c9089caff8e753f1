import Foundation
import PureVisionEngine
import PureVisionImage
import PureVisionKernels
import PureVisionTFLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The prepared face landmarker pipeline and its tracking state (MediaPipe 0.10.14's `FaceLandmarkerGraph`).
///
/// Per frame:
/// 1. Detection (image mode always; video / live stream only while fewer than `numFaces` faces are tracked):
///    the `FaceDetector` pipeline with weighted NMS at IoU **0.5** (the graph's default; the FaceDetector task
///    sends 0.3), clipped to `numFaces`; each detection's rect rotated so that keypoint 0 → 1 (the eyes) is
///    horizontal and scaled 1.5 × 1.5 (no square_long).
/// 2. Video / live stream: last frame's rects, then the new detection rects, associated (`associate`) and clipped
///    to `numFaces`.
/// 3. Per rect: a 256 × 256 stretched crop with a replicated border, range from the model's metadata ([0, 1]);
///    the landmark model; presence = sigmoid(face flag) must be > `minFacePresenceConfidence`; 478 landmarks
///    `x/256, y/256, z/256` projected through the rect.
/// 4. Video / live stream: the next frame's rect from the raw landmarks (`trackingRect`); with `numFaces` 1 the
///    reported landmarks are smoothed (`FaceLandmarkSmoother`).
/// 5. Blendshapes from the reported landmarks; the facial transformation matrix from their first 468 points.
///
/// Invariant: `process` is only called by the task runner, which serialises calls, so the tracking state needs no
/// lock; the detection counter (`detectorRuns`) locks itself.
final class FaceLandmarkerPipeline: @unchecked Sendable {
    let options: FaceLandmarkerOptions
    let detector: FaceDetectionPipeline
    let landmarker: RegionLandmarkModel
    let blendshapes: LoadedModel?
    /// The thread pool of each model.
    var pools: [ThreadPool] { [detector.loaded.pool, landmarker.model.pool] + (blendshapes.map { [$0.pool] } ?? []) }
    let geometry: FaceGeometryPipeline?

    private var trackedRects: [NormalizedRect] = []
    private var smoother = FaceLandmarkSmoother()
    /// How many times the detector has run.
    let detectorRuns = RunCounter()

    static let detectorEntry = "face_detector.tflite"
    static let landmarksEntry = "face_landmarks_detector.tflite"
    static let blendshapesEntry = "face_blendshapes.tflite"
    static let geometryEntry = "geometry_pipeline_metadata_landmarks.binarypb"
    static let landmarkCount = 478
    /// The face detector's NMS IoU threshold inside FaceLandmarker (the graph option's default).
    static let suppressionThreshold: Float = 0.5

    init(options: FaceLandmarkerOptions) throws(VisionTaskError) {
        self.options = options
        let threads = options.baseOptions.threadCount
        let bundle = try Self.bundle(options.baseOptions)
        let pool = LoadedModel.sharedPool(threadCount: threads)

        detector = try FaceDetectionPipeline(
            options: FaceDetectorOptions(
                baseOptions: BaseOptions(
                    modelAssetBuffer: try Self.entry(Self.detectorEntry, of: bundle), threadCount: threads),
                minDetectionConfidence: options.minFaceDetectionConfidence,
                minSuppressionThreshold: Self.suppressionThreshold), pool: pool)

        landmarker = try RegionLandmarkModel(
            model: try LoadedModel.load(
                bytes: try Self.entry(Self.landmarksEntry, of: bundle), threadCount: threads, pool: pool),
            role: "face landmark model")
        let counts = landmarker.outputElementCounts
        guard counts.count >= 2, counts[0] == 3 * Self.landmarkCount, counts[1] == 1 else {
            throw .model(
                "\(Self.landmarksEntry): the face landmark model must output \(3 * Self.landmarkCount) landmark "
                    + "floats and a face flag; it outputs \(counts)")
        }

        if options.outputFaceBlendshapes {
            let model = try LoadedModel.load(
                bytes: try Self.entry(Self.blendshapesEntry, of: bundle, reason: "needed for blendshapes"),
                threadCount: threads, pool: pool)
            let inputs = model.interpreter.inputs
            let outputs = model.interpreter.outputs
            let pointCount = FaceBlendshapes.landmarkIndices.count
            guard inputs.count == 1, inputs[0].elementType == .float32,
                inputs[0].shape.dimensions == [1, pointCount, 2]
            else {
                throw .model(
                    "\(Self.blendshapesEntry): the blendshape model must take one float32 [1, \(pointCount), 2] "
                        + "input; it takes \(inputs.map { "\($0.elementType) \($0.shape)" })")
            }
            guard let first = outputs.first, first.elementType == .float32,
                first.shape.elementCount == FaceBlendshapes.names.count
            else {
                throw .model(
                    "\(Self.blendshapesEntry): the blendshape model's first output must hold "
                        + "\(FaceBlendshapes.names.count) float32 scores; it outputs "
                        + "\(outputs.map { "\($0.elementType) \($0.shape)" })")
            }
            blendshapes = model
        } else {
            blendshapes = nil
        }

        if options.outputFacialTransformationMatrixes {
            let bytes = try Self.entry(Self.geometryEntry, of: bundle, reason: "needed for transformation matrixes")
            let metadata: GeometryPipelineMetadata
            do throws(ProtobufError) {
                metadata = try GeometryPipelineMetadata(bytes: bytes)
            } catch {
                throw .model("\(Self.geometryEntry): \(error)")
            }
            geometry = try FaceGeometryPipeline(metadata: metadata)
        } else {
            geometry = nil
        }
    }

    // MARK: - Per frame

    func process(_ frame: VisionFrame, timestampInMilliseconds: Int, tracking: Bool) throws(VisionTaskError)
        -> FaceLandmarkerResult
    {
        let image = frame.image
        var rects = tracking ? trackedRects : []
        if !tracking || rects.count < options.numFaces {
            rects += try detectFaces(VisionFrame(image: image, processing: frame.processing))
        }
        if tracking {
            // The association runs on every stream frame, with or without new detections.
            rects = Self.associate(rects, threshold: options.minTrackingConfidence)
        }
        rects = Array(rects.prefix(options.numFaces))

        var faces: [[NormalizedLandmark]] = []
        var nextRects: [NormalizedRect] = []
        for rect in rects {
            guard let landmarks = try landmarks(image, rect: rect) else { continue }
            faces.append(landmarks)
            if tracking {
                nextRects.append(
                    Self.trackingRect(landmarks: landmarks, imageWidth: image.width, imageHeight: image.height))
            }
        }
        if tracking {
            trackedRects = nextRects
            if options.numFaces == 1 {
                if let face = faces.first {
                    faces[0] = smoother.smooth(
                        face, timestampInMilliseconds: timestampInMilliseconds, imageWidth: image.width,
                        imageHeight: image.height)
                } else {
                    smoother.reset()
                }
            }
        }

        var scores: [[ResultCategory]] = []
        if blendshapes != nil {
            for face in faces {
                scores.append(try blendshapeScores(face, imageWidth: image.width, imageHeight: image.height))
            }
        }
        var matrixes: [TransformMatrix] = []
        if let geometry {
            for face in faces {
                if let matrix = try geometry.poseMatrix(
                    landmarks: face, imageWidth: image.width, imageHeight: image.height)
                {
                    matrixes.append(matrix)
                }
            }
        }
        return FaceLandmarkerResult(
            faceLandmarks: faces, faceBlendshapes: scores, facialTransformationMatrixes: matrixes,
            timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Face detection on the whole (rotated) image: the face rects, best first, at most `numFaces`.
    private func detectFaces(_ frame: VisionFrame) throws(VisionTaskError) -> [NormalizedRect] {
        detectorRuns.increment()
        let found = try detector.detectNormalized(frame)
        let image = frame.image
        do throws(DetectionError) {
            return try DetectionsToRects.rects(
                of: Array(found.prefix(options.numFaces)), rotationVector: .faceDetection, imageWidth: image.width,
                imageHeight: image.height
            ).map {
                RectTransformation.transform(
                    $0, imageWidth: image.width, imageHeight: image.height, scaleX: 1.5, scaleY: 1.5)
            }
        } catch {
            throw .model("face rects: \(error)")
        }
    }

    /// The landmark model on one rect: 478 image-normalized landmarks, or nil when the presence gate fails.
    private func landmarks(_ image: PixelImage, rect: NormalizedRect) throws(VisionTaskError) -> [NormalizedLandmark]? {
        let size = landmarker.inputSize
        let threshold = options.minFacePresenceConfidence
        return try landmarker.run(image, rect: rect) {
            session, transform throws(VisionTaskError) -> [NormalizedLandmark]? in
            let presence = 1 / (1 + expf(-session.floatOutput(1)[0]))
            guard presence > threshold else { return nil }
            // The stretched crop has no letterbox, and the face model's z is not rescaled (normalize_z 1).
            return HandLandmarkDecoding.screenLandmarks(
                raw: session.floatOutput(0), inputWidth: size.width, inputHeight: size.height,
                letterbox: transform.letterboxPadding, rect: rect, normalizeZ: 1)
        }
    }

    /// The 52 blendshape scores of one face: the 146 selected landmarks in pixels (`x·W`, `y·H`) through the
    /// blendshape model, scores in index order.
    func blendshapeScores(
        _ landmarks: [NormalizedLandmark], imageWidth: Int, imageHeight: Int
    ) throws(VisionTaskError) -> [ResultCategory] {
        guard let model = blendshapes else { return [] }
        guard landmarks.count >= Self.landmarkCount else {
            throw .invalidOption(name: "landmarks", reason: "need \(Self.landmarkCount), got \(landmarks.count)")
        }
        let width = Float(imageWidth)
        let height = Float(imageHeight)
        return try model.interpreter.withSession { session throws(VisionTaskError) -> [ResultCategory] in
            let input = session.floatInput(0)
            let indices = FaceBlendshapes.landmarkIndices
            guard input.count == 2 * indices.count else { throw .model("unexpected blendshape input size") }
            for (k, index) in indices.enumerated() {
                input[2 * k] = landmarks[index].x * width
                input[2 * k + 1] = landmarks[index].y * height
            }
            session.invoke()
            let output = session.floatOutput(0)
            return FaceBlendshapes.names.enumerated().map { index, name in
                ResultCategory(index: index, score: output[index], categoryName: name)
            }
        }
    }

    // MARK: - Tracking geometry

    /// MediaPipe's `AssociationNormRectCalculator` over one list (tracked rects first, then new detections): each
    /// rect removes the earlier ones whose IoU with it is greater than `threshold` (axis-aligned, rotation
    /// ignored) and is appended, so a new detection replaces the tracked face it overlaps.
    static func associate(_ rects: [NormalizedRect], threshold: Float) -> [NormalizedRect] {
        var kept: [NormalizedRect] = []
        for rect in rects {
            let box = HandAssociation.box(of: rect)
            kept.removeAll { HandAssociation.intersectionOverUnion(HandAssociation.box(of: $0), box) > threshold }
            kept.append(rect)
        }
        return kept
    }

    /// The next frame's rect from a face's landmarks (`face_landmarks_detector_graph.cc`): the bounding box of all
    /// landmarks (`LandmarksToDetection`, maxima starting at `FLT_MIN`), rotated so that landmark 33 → 263 (the
    /// eyes' outer corners) is horizontal, then scaled 1.5 × 1.5 with square_long.
    static func trackingRect(landmarks: [NormalizedLandmark], imageWidth: Int, imageHeight: Int) -> NormalizedRect {
        let bounds = PointBounds.of(landmarks, from: .emptyFromFLTMin)
        let (minX, minY, maxX, maxY) = (bounds.minX, bounds.minY, bounds.maxX, bounds.maxY)
        var rect = NormalizedRect(
            xCenter: minX + (maxX - minX) / 2, yCenter: minY + (maxY - minY) / 2, width: maxX - minX,
            height: maxY - minY)
        if landmarks.count > 263 {
            let width = Float(imageWidth)
            let height = Float(imageHeight)
            let x0 = landmarks[33].x * width
            let y0 = landmarks[33].y * height
            let x1 = landmarks[263].x * width
            let y1 = landmarks[263].y * height
            rect.rotation = DetectionsToRects.normalizeRadians(
                RotationVector.faceDetection.targetAngle - atan2f(-(y1 - y0), x1 - x0))
        }
        return RectTransformation.transform(
            rect, imageWidth: imageWidth, imageHeight: imageHeight, scaleX: 1.5, scaleY: 1.5, squareLong: true)
    }

    // MARK: - Loading

    static func bundle(_ baseOptions: BaseOptions) throws(VisionTaskError) -> ZipArchive {
        let bytes = try LoadedModel.bytes(of: baseOptions)
        do throws(ModelFormatError) {
            return try ZipArchive(bytes: bytes)
        } catch {
            throw .model("face landmarker bundle: \(error)")
        }
    }

    /// A bundle entry's bytes; a missing entry is named in the error.
    static func entry(_ name: String, of bundle: ZipArchive, reason: String? = nil) throws(VisionTaskError) -> [UInt8] {
        do throws(ModelFormatError) {
            return Array(try bundle.data(named: name))
        } catch {
            if case .missingZipEntry = error.underlying {
                throw .model(
                    "face landmarker bundle: no entry \(name)\(reason.map { " (\($0))" } ?? ""); it holds "
                        + bundle.names.joined(separator: ", "))
            }
            throw .model("face landmarker bundle: \(name): \(error)")
        }
    }
}
