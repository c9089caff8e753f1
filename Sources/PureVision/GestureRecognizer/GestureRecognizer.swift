import Foundation
import PureVisionEngine
import PureVisionImage
import PureVisionKernels
import PureVisionTFLite

/// MediaPipe's GestureRecognizer, natively: the hand landmarker's pipeline (palm detection, hand landmarks,
/// tracking in video and live-stream modes), then per hand a gesture embedding from the landmarks, world landmarks
/// and handedness, classified by the canned classifier (None, Closed_Fist, Open_Palm, Pointing_Up, Thumb_Down,
/// Thumb_Up, Victory, ILoveYou) and, for a MediaPipe Model Maker bundle, a custom classifier whose answer takes
/// precedence unless it is the background "None".
///
/// Matches MediaPipe Tasks 0.10.14, including the embedder's exact inputs and the combining rule (see
/// `GestureRecognizerResult` for the gesture lists' shape). Rotation through `ImageProcessingOptions` is supported
/// and also turns the embedder's inputs; a region of interest is not. `Sendable`: calls are serialised.
public final class GestureRecognizer: GestureRecognitionTask {
    /// The options the recognizer was created with.
    public let options: GestureRecognizerOptions
    /// The running-mode machine that serves the task's calls.
    public let runner: VisionTaskRunner<GestureRecognizerResult>
    private let hands: HandLandmarkPipeline
    private let gestures: HandGestureModels

    /// The thread pool each of the task's models runs on, in load order: one pool, shared (tests check that a task
    /// starts only the threads it was asked for).
    package var modelThreadPools: [ThreadPool] { hands.pools + gestures.pools }

    /// Creates a recognizer.
    /// - Throws: `VisionTaskError` for options out of range, a missing or malformed bundle (naming the missing or
    ///   damaged entry: a hand landmarker bundle is refused for lacking `hand_gesture_recognizer.task`), models of
    ///   the wrong shape, or a result handler that does not fit the running mode.
    public init(options: GestureRecognizerOptions) throws(VisionTaskError) {
        try options.validate()
        self.options = options
        let bundle = try GestureRecognizerBundle(bytes: try LoadedModel.bytes(of: options.baseOptions))
        let pool = LoadedModel.sharedPool(threadCount: options.baseOptions.threadCount)
        let hands: HandLandmarkPipeline
        do {
            hands = try HandLandmarkPipeline(
                options: options.handLandmarkerOptions(handBundle: bundle.handLandmarker), pool: pool)
        } catch {
            switch error {
            case .model(let message): throw .model("\(GestureRecognizerBundle.handLandmarkerEntry): \(message)")
            default: throw error
            }
        }
        let gestures = try HandGestureModels(bundle: bundle, options: options, pool: pool)
        self.hands = hands
        self.gestures = gestures
        let tracking = options.runningMode != .image
        runner = try VisionTaskRunner(
            options: options, label: "GestureRecognizer",
            process: { frame, timestamp throws(VisionTaskError) in
                try Self.recognize(frame, timestamp: timestamp, tracking: tracking, hands: hands, gestures: gestures)
            })
    }

    /// Creates an image-mode recognizer from a `gesture_recognizer.task` bundle with default options.
    public convenience init(modelPath: String) throws(VisionTaskError) {
        try self.init(options: GestureRecognizerOptions(baseOptions: BaseOptions(modelAssetPath: modelPath)))
    }

    /// Beyond MediaPipe's API: the gesture stage alone, for one hand given by its hand landmarker outputs (e.g. a
    /// `HandLandmarkerResult`'s), in any running mode. Stateless, so it can run beside the other calls.
    ///
    /// - Parameters:
    ///   - landmarks: the hand's 21 landmarks, normalized to the image.
    ///   - worldLandmarks: the hand's 21 world landmarks, in metres.
    ///   - handedness: the hand's handedness category ("Right" or "Left" with its score).
    ///   - imageWidth: the width of the image the landmarks are normalized to (stored pixels).
    ///   - imageHeight: the height of that image.
    ///   - imageProcessingOptions: the rotation the landmarks were found with (it also turns the embedder's inputs).
    /// - Returns: the gesture (index −1), or nil when the classifier options filtered every category away.
    /// - Throws: `VisionTaskError.model` unless there are 21 landmarks of each kind and a "Right" / "Left"
    ///   handedness scoring at least 0.5; `VisionTaskError.invalidOption` for a rotation that is not a multiple of 90.
    public func recognizeGesture(
        landmarks: [NormalizedLandmark], worldLandmarks: [Landmark], handedness: ResultCategory, imageWidth: Int,
        imageHeight: Int, imageProcessingOptions: ImageProcessingOptions? = nil
    ) throws(VisionTaskError) -> ResultCategory? {
        guard imageWidth > 0, imageHeight > 0 else {
            throw .invalidOption(
                name: "imageWidth", reason: "the image size must be positive, got \(imageWidth)×\(imageHeight)")
        }
        let rotation: Float
        do throws(PreprocessingError) {
            rotation = try (imageProcessingOptions ?? ImageProcessingOptions()).normalizedRect(
                imageWidth: imageWidth, imageHeight: imageHeight, roiAllowed: false
            ).rotation
        } catch {
            throw FaceDetectionPipeline.taskError(error)
        }
        return try gestures.recognize(
            landmarks: landmarks, worldLandmarks: worldLandmarks, handedness: handedness, imageWidth: imageWidth,
            imageHeight: imageHeight, rotation: rotation)
    }

    /// How many times palm detection has run: in video and live-stream modes it runs only while fewer than
    /// `numHands` hands are tracked.
    public var palmDetectionCount: Int { hands.detectorRuns.value }

    /// Whether the bundle has a custom classifier (a MediaPipe Model Maker bundle), whose answers take precedence.
    public var hasCustomClassifier: Bool { gestures.classifiers.count > 1 }

    /// One frame: the hand landmarker's result, then each hand's gesture; hands without a prediction keep their
    /// landmarks but get no gesture list, and a frame where no hand got one is reported empty (MediaPipe's shape).
    private static func recognize(
        _ frame: VisionFrame, timestamp: Int, tracking: Bool, hands: HandLandmarkPipeline, gestures: HandGestureModels
    ) throws(VisionTaskError) -> GestureRecognizerResult {
        let found = try hands.process(frame, timestampInMilliseconds: timestamp, tracking: tracking)
        let image = frame.image
        let rotation: Float
        do throws(PreprocessingError) {
            rotation = try (frame.processing ?? ImageProcessingOptions()).normalizedRect(
                imageWidth: image.width, imageHeight: image.height, orientation: image.orientation, roiAllowed: false
            ).rotation
        } catch {
            throw FaceDetectionPipeline.taskError(error)
        }
        var recognized: [[ResultCategory]] = []
        var handIndices: [Int] = []
        for i in found.landmarks.indices {
            guard let handedness = found.handedness[i].first else { continue }
            if let gesture = try gestures.recognize(
                landmarks: found.landmarks[i], worldLandmarks: found.worldLandmarks[i], handedness: handedness,
                imageWidth: image.width, imageHeight: image.height, rotation: rotation)
            {
                recognized.append([gesture])
                handIndices.append(i)
            }
        }
        guard !recognized.isEmpty else {
            return GestureRecognizerResult(
                gestures: [], handedness: [], landmarks: [], worldLandmarks: [], timestampInMilliseconds: timestamp)
        }
        return GestureRecognizerResult(
            gestures: recognized, handedness: found.handedness, landmarks: found.landmarks,
            worldLandmarks: found.worldLandmarks, timestampInMilliseconds: timestamp, gestureHandIndices: handIndices)
    }
}
