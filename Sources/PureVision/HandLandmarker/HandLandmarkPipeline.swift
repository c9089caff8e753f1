import Foundation
import PureVisionEngine
import PureVisionImage
import PureVisionKernels
import PureVisionTFLite

/// The prepared hand pipeline and its tracking state.
///
/// Invariant: `process` is only ever called by the task runner, which serialises calls, so the mutable tracking
/// state needs no lock of its own; the counter (`detectorRuns`) locks itself.
final class HandLandmarkPipeline: @unchecked Sendable {
    let options: HandLandmarkerOptions
    let palmDetector: SSDDetector
    let landmarker: RegionLandmarkModel
    /// The thread pool of each model.
    var pools: [ThreadPool] { [palmDetector.model.pool, landmarker.model.pool] }

    private var trackedRects: [NormalizedRect] = []
    /// A stable identity per tracked hand (for the optional smoother), parallel to `trackedRects`.
    private var trackedIDs: [Int] = []
    private var nextTrackID = 0
    private var smoother: HandLandmarkSmoother?
    /// How many times the detector has run.
    let detectorRuns = RunCounter()

    static let detectorEntry = "hand_detector.tflite"
    static let landmarksEntry = "hand_landmarks_detector.tflite"

    /// Loads both models on one thread pool: `pool`, that of the task the pipeline is part of, or a new one.
    init(options: HandLandmarkerOptions, pool: ThreadPool? = nil) throws(VisionTaskError) {
        self.options = options
        let threads = options.baseOptions.threadCount
        let (detectorBytes, landmarksBytes) = try Self.modelBytes(options)
        let pool = pool ?? LoadedModel.sharedPool(threadCount: threads)
        let detector = try LoadedModel.load(bytes: detectorBytes, threadCount: threads, pool: pool)
        let landmarkModel = try LoadedModel.load(bytes: landmarksBytes, threadCount: threads, pool: pool)

        // Palm detector: 192×192 in [0, 1] unless its metadata says otherwise, 2016 SSD anchors.
        var decoder = DetectionDecoderOptions.palmDetection192
        decoder.minScoreThresh = options.minHandDetectionConfidence
        palmDetector = try SSDDetector(
            model: detector, role: "hand detector", inputSide: 192, anchorOptions: .palmDetection192,
            boxCoordinates: 18, decoderOptions: decoder, defaultRange: (0, 1))

        // Hand landmarks: stretched square crop with a replicated border; outputs 63 + 1 + 1 + 63 floats.
        landmarker = try RegionLandmarkModel(model: landmarkModel, role: "hand landmark model")
        let shapes = landmarker.outputElementCounts
        guard shapes == [63, 1, 1, 63] else {
            throw .model("the hand landmark model must output 63, 1, 1 and 63 floats; it outputs \(shapes)")
        }
        if let parameters = options.landmarkSmoothing {
            do throws(LandmarkSmoothingError) {
                smoother = try HandLandmarkSmoother(parameters: parameters)
            } catch {
                throw .invalidOption(name: "landmarkSmoothing", reason: "\(error)")
            }
        }
    }

    // MARK: - Per frame

    func process(_ frame: VisionFrame, timestampInMilliseconds: Int, tracking: Bool) throws(VisionTaskError)
        -> HandLandmarkerResult
    {
        let image = frame.image
        let imageRect = try ImageProcessingOptions.imageRect(
            of: image, processing: frame.processing, roiAllowed: false)

        var rects = tracking ? trackedRects : []
        var ids = tracking ? trackedIDs : []
        if !tracking || rects.count < options.numHands {
            let palms = try detectPalms(image, rect: imageRect)
            if tracking {
                // Association keeps every tracked rect, in order, and appends the new palms it accepts.
                rects = HandAssociation.associate(
                    trackedRects: rects, detectedRects: palms, minSimilarityThreshold: options.minTrackingConfidence,
                    maxHands: options.numHands)
                ids = Array(ids.prefix(rects.count))
                while ids.count < rects.count {
                    ids.append(nextTrackID)
                    nextTrackID += 1
                }
            } else {
                rects = Array(palms.prefix(options.numHands))
            }
        }

        var hands: [HandEstimate] = []
        for (index, rect) in rects.enumerated() {
            guard var hand = try landmarks(image, rect: rect) else { continue }
            hand.trackID = index < ids.count ? ids[index] : -1
            hands.append(hand)
        }
        let keep = HandDeduplication.deduplicate(
            hands.map(\.landmarks), imageWidth: image.width, imageHeight: image.height)
        hands = keep.map { hands[$0] }
        if tracking {
            trackedRects = hands.map(\.next)
            trackedIDs = hands.map(\.trackID)
        }

        var landmarks = hands.map(\.landmarks)
        if tracking, var filter = smoother {
            let byTrack = Dictionary(uniqueKeysWithValues: hands.map { ($0.trackID, $0.landmarks) })
            do throws(LandmarkSmoothingError) {
                let smoothed = try filter.smooth(byTrack, timestampMilliseconds: Int64(timestampInMilliseconds))
                landmarks = hands.map { smoothed[$0.trackID] ?? $0.landmarks }
            } catch {
                throw .invalidOption(name: "landmarkSmoothing", reason: "\(error)")
            }
            smoother = filter
        }
        return HandLandmarkerResult(
            handedness: hands.map { [options.isInputMirrored ? Self.mirrored($0.handedness) : $0.handedness] },
            landmarks: landmarks, worldLandmarks: hands.map(\.world))
    }

    /// One hand's outputs for one region.
    struct HandEstimate {
        var handedness: ResultCategory
        var landmarks: [NormalizedLandmark]
        var world: [Landmark]
        /// The region to track in the next frame.
        var next: NormalizedRect
        var trackID = -1
    }

    /// Palm detection on the whole (rotated) image: the hand regions it proposes, best first, at most numHands.
    private func detectPalms(_ image: PixelImage, rect: NormalizedRect) throws(VisionTaskError) -> [NormalizedRect] {
        detectorRuns.increment()
        let (decoded, transform) = try palmDetector.detect(image, rect: rect, stage: "palm")
        let kept = NonMaxSuppression.suppress(decoded, options: .palmDetection) ?? []
        do throws(DetectionError) {
            let projected = try DetectionProjection.project(kept, matrix: transform.matrix)
            let palms = try DetectionsToRects.rects(
                of: Array(projected.prefix(options.numHands)), rotationVector: .palmDetection,
                imageWidth: image.width, imageHeight: image.height)
            return palms.map {
                RectTransformation.transform(
                    $0, imageWidth: image.width, imageHeight: image.height, scaleX: 2.6, scaleY: 2.6, shiftY: -0.5,
                    squareLong: true)
            }
        } catch {
            throw .model("palm rects: \(error)")
        }
    }

    /// The hand landmark model on one region; nil when the presence score does not pass the gate.
    private func landmarks(_ image: PixelImage, rect: NormalizedRect) throws(VisionTaskError) -> HandEstimate? {
        let size = landmarker.inputSize
        let threshold = options.minHandPresenceConfidence
        return try landmarker.run(image, rect: rect) { session, transform throws(VisionTaskError) -> HandEstimate? in
            let presence = session.floatOutput(1)[0]
            guard presence > threshold else { return nil }
            let screen = HandLandmarkDecoding.screenLandmarks(
                raw: session.floatOutput(0), inputWidth: size.width, inputHeight: size.height,
                letterbox: transform.letterboxPadding, rect: rect)
            let world = HandLandmarkDecoding.worldLandmarks(raw: session.floatOutput(3), rect: rect)
            let handedness = HandLandmarkDecoding.handedness(raw: session.floatOutput(2)[0])
            let next = HandLandmarksToRect.trackingRect(
                landmarks: screen, imageWidth: image.width, imageHeight: image.height)
            return HandEstimate(
                handedness: ResultCategory(
                    index: handedness.index, score: handedness.score, categoryName: handedness.categoryName),
                landmarks: screen, world: world, next: next)
        }
    }

    // MARK: - Loading

    /// The two models' bytes: the separate files when both are given, else the `.task` bundle's entries.
    static func modelBytes(_ options: HandLandmarkerOptions) throws(VisionTaskError) -> ([UInt8], [UInt8]) {
        if let detectorPath = options.handDetectorModelPath, let landmarksPath = options.handLandmarksModelPath {
            return (try read(detectorPath), try read(landmarksPath))
        }
        return try LoadedModel.landmarkerBundle(
            options.baseOptions, detectorEntry: detectorEntry, landmarksEntry: landmarksEntry,
            landmarker: "hand landmarker")
    }

    static func read(_ path: String) throws(VisionTaskError) -> [UInt8] {
        do { return try readFileBytes(path) } catch { throw .model("\(error)") }
    }

    /// The same category for the person's hand in a mirrored image: Right ↔ Left.
    static func mirrored(_ category: ResultCategory) -> ResultCategory {
        switch category.categoryName {
        case "Right":
            ResultCategory(index: 1, score: category.score, categoryName: "Left", displayName: category.displayName)
        case "Left":
            ResultCategory(index: 0, score: category.score, categoryName: "Right", displayName: category.displayName)
        default: category
        }
    }
}
