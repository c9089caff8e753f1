import Foundation
import PureVisionEngine
import PureVisionImage
import PureVisionKernels
import PureVisionTFLite

/// The prepared pose pipeline and its tracking state.
///
/// Invariant: `process` is only ever called by the task runner, which serialises calls, so the mutable tracking
/// state needs no lock of its own; the detection counter (`detectorRuns`) locks itself.
final class PoseLandmarkPipeline: @unchecked Sendable {
    let options: PoseLandmarkerOptions
    let poseDetector: SSDDetector
    let landmarker: RegionLandmarkModel
    /// The thread pool of each model.
    var pools: [ThreadPool] { [poseDetector.model.pool, landmarker.model.pool] }
    /// The landmark model's outputs: landmark count (39), heatmap and segmentation sizes.
    let landmarkCount: Int
    let heatmapSize: (width: Int, height: Int)
    let maskSize: (width: Int, height: Int)

    /// Last frame's next-frame regions (video / live stream); empty after a frame without poses.
    private var trackedRects: [NormalizedRect] = []
    private var smoother = PoseLandmarkSmoother()
    /// How many times the detector has run.
    let detectorRuns = RunCounter()

    static let detectorEntry = "pose_detector.tflite"
    static let landmarksEntry = "pose_landmarks_detector.tflite"

    init(options: PoseLandmarkerOptions) throws(VisionTaskError) {
        self.options = options
        let threads = options.baseOptions.threadCount
        let (detectorBytes, landmarksBytes) = try Self.modelBytes(options.baseOptions)
        let pool = LoadedModel.sharedPool(threadCount: threads)
        let detector = try LoadedModel.load(bytes: detectorBytes, threadCount: threads, pool: pool)
        let landmarkModel = try LoadedModel.load(bytes: landmarksBytes, threadCount: threads, pool: pool)

        // Pose detector: 224×224 in [−1, 1] unless its metadata says otherwise, 2254 SSD anchors
        // (`PoseRegion.anchorCount`, which the decoder options expect).
        poseDetector = try SSDDetector(
            model: detector, role: "pose detector", inputSide: 224, anchorOptions: PoseRegion.anchorOptions,
            boxCoordinates: 12, decoderOptions: PoseRegion.decoderOptions(minScore: options.minPoseDetectionConfidence),
            defaultRange: (-1, 1))

        // Pose landmarks: stretched square crop with a replicated border; five outputs by index.
        landmarker = try RegionLandmarkModel(model: landmarkModel, role: "pose landmark model")
        let shapes = landmarkModel.interpreter.outputs.map(\.shape.dimensions)
        let refused = VisionTaskError.model(
            "the pose landmark model must output [1, 5·N] landmarks (N ≥ 35), [1, 1] presence, [1, H, W, 1] "
                + "segmentation, [1, h, w, N] heatmap and [1, 3·N] world landmarks; it outputs \(shapes)")
        guard shapes.count == 5, shapes[0].count == 2, shapes[0][1] % 5 == 0, shapes[0][1] / 5 >= 35,
            shapes[1].reduce(1, *) == 1, shapes[2].count == 4, shapes[2][3] == 1, shapes[3].count == 4,
            shapes[3][3] == shapes[0][1] / 5, shapes[4].reduce(1, *) == 3 * (shapes[0][1] / 5),
            shapes[2][1] > 0, shapes[2][2] > 0, shapes[3][1] > 0, shapes[3][2] > 0
        else { throw refused }
        landmarkCount = shapes[0][1] / 5
        maskSize = (shapes[2][2], shapes[2][1])
        heatmapSize = (shapes[3][2], shapes[3][1])
    }

    /// Replaces the regions the next frame tracks (test hook; call only between frames).
    func replaceTrackedRegions(_ regions: [NormalizedRect]) {
        trackedRects = regions
    }

    // MARK: - Per frame

    func process(_ frame: VisionFrame, timestampInMilliseconds: Int, tracking: Bool) throws(VisionTaskError)
        -> PoseLandmarkerResult
    {
        let image = frame.image
        let imageRect = try ImageProcessingOptions.imageRect(
            of: image, processing: frame.processing, roiAllowed: false)

        var rects: [NormalizedRect]
        if tracking {
            var detected: [NormalizedRect] = []
            if trackedRects.count < options.numPoses {
                detected = try detectPoses(image, rect: imageRect)
            }
            rects = PoseRegion.associate(
                tracked: trackedRects, detected: detected, threshold: options.minTrackingConfidence)
        } else {
            rects = try detectPoses(image, rect: imageRect)
        }
        rects = Array(rects.prefix(options.numPoses))

        var poses: [PoseEstimate] = []
        for rect in rects {
            if let pose = try landmarks(image, rect: rect) { poses.append(pose) }
        }
        if tracking { trackedRects = poses.map(\.next) }

        var landmarks = poses.map(\.landmarks)
        var world = poses.map(\.world)
        if tracking && options.numPoses == 1 {
            if let first = poses.first {
                let smoothed = smoother.smooth(
                    landmarks: first.landmarks, world: first.world, objectRegion: first.next,
                    imageWidth: image.width, imageHeight: image.height,
                    timestampInMilliseconds: timestampInMilliseconds)
                landmarks[0] = smoothed.landmarks
                world[0] = smoothed.world
            } else {
                smoother.resetForMissingPose()
            }
        }
        let masks: [PoseSegmentationMask]? =
            options.outputSegmentationMasks && !poses.isEmpty ? poses.compactMap(\.mask) : nil
        return PoseLandmarkerResult(
            landmarks: landmarks, worldLandmarks: world, segmentationMasks: masks,
            timestampInMilliseconds: timestampInMilliseconds)
    }

    /// One pose's outputs for one region.
    struct PoseEstimate {
        var landmarks: [NormalizedLandmark]
        var world: [Landmark]
        var mask: PoseSegmentationMask?
        /// The region to track in the next frame (from the auxiliary landmarks).
        var next: NormalizedRect
    }

    /// The pose detector on the whole (rotated) image: one region per detection in NMS order, not yet clipped.
    private func detectPoses(_ image: PixelImage, rect: NormalizedRect) throws(VisionTaskError) -> [NormalizedRect] {
        detectorRuns.increment()
        let (decoded, transform) = try poseDetector.detect(image, rect: rect, stage: "pose")
        let kept = NonMaxSuppression.suppress(decoded, options: PoseRegion.suppression) ?? []
        var regions: [NormalizedRect] = []
        for detection in kept {
            let corrected = PoseRegion.removingLetterbox(detection, padding: transform.letterboxPadding)
            guard corrected.keypoints.count >= 2,
                let region = PoseRegion.region(
                    center: corrected.keypoints[0], scalePoint: corrected.keypoints[1], imageWidth: image.width,
                    imageHeight: image.height)
            else { continue }
            regions.append(region)
        }
        return regions
    }

    /// The pose landmark model on one region; nil when the pose presence score does not pass the gate.
    private func landmarks(_ image: PixelImage, rect: NormalizedRect) throws(VisionTaskError) -> PoseEstimate? {
        let size = landmarker.inputSize
        let threshold = options.minPosePresenceConfidence
        let count = landmarkCount
        let heatmap = heatmapSize
        let maskSize = self.maskSize
        let wantsMask = options.outputSegmentationMasks
        return try landmarker.run(image, rect: rect) { session, transform throws(VisionTaskError) -> PoseEstimate? in
            guard session.floatOutput(1)[0] > threshold else { return nil }
            var crop = PoseLandmarkDecoding.cropLandmarks(
                raw: session.floatOutput(0), count: count, inputWidth: size.width, inputHeight: size.height)
            PoseLandmarkDecoding.refine(
                &crop, heatmap: session.floatOutput(3), width: heatmap.width, height: heatmap.height)
            let cosine = cosf(rect.rotation)
            let sine = sinf(rect.rotation)
            let poseCount = PoseLandmarkDecoding.poseLandmarkCount
            let projected = crop.prefix(poseCount + 2).map {
                PoseLandmarkDecoding.project($0, cosine: cosine, sine: sine, rect: rect)
            }
            let landmarks = Array(projected.prefix(poseCount))
            let world = PoseLandmarkDecoding.worldLandmarks(
                raw: session.floatOutput(4), cosine: cosine, sine: sine, copyingFrom: crop)
            let center = projected[PoseLandmarkDecoding.auxiliaryCenterIndex]
            let scale = projected[PoseLandmarkDecoding.auxiliaryCenterIndex + 1]
            let next =
                PoseRegion.region(
                    center: Keypoint(x: center.x, y: center.y), scalePoint: Keypoint(x: scale.x, y: scale.y),
                    imageWidth: image.width, imageHeight: image.height)
                ?? NormalizedRect(xCenter: 0, yCenter: 0, width: 0, height: 0)
            var mask: PoseSegmentationMask?
            if wantsMask {
                let values = PoseMaskProjection.project(
                    logits: session.floatOutput(2), maskWidth: maskSize.width, maskHeight: maskSize.height,
                    cropMatrix: transform.matrix, imageWidth: image.width, imageHeight: image.height)
                mask = PoseSegmentationMask(width: image.width, height: image.height, values: values)
            }
            return PoseEstimate(landmarks: landmarks, world: world, mask: mask, next: next)
        }
    }

    // MARK: - Loading

    /// The two models' bytes from the `.task` bundle; a bundle without either entry is refused, naming it.
    static func modelBytes(_ baseOptions: BaseOptions) throws(VisionTaskError) -> ([UInt8], [UInt8]) {
        try LoadedModel.landmarkerBundle(
            baseOptions, detectorEntry: detectorEntry, landmarksEntry: landmarksEntry, landmarker: "pose landmarker")
    }
}
