import Foundation
import PureVision
import PureVisionImage

/// One task for `bench --soak`, type-erased: which running modes it has, the photo it runs on in image and
/// live-stream mode, and how to open it. A new task joins the soak with one line in `SoakTask.all`.
struct SoakTask: Sendable {
    enum Mode: Sendable {
        case image, video, liveStream

        /// The soak row's name suffix.
        var rowSuffix: String {
            switch self {
            case .image: "image"
            case .video: "video"
            case .liveStream: "live_stream"
            }
        }

        var runningMode: RunningMode {
            switch self {
            case .image: .image
            case .video: .video
            case .liveStream: .liveStream
            }
        }
    }

    /// Where models and photos are.
    struct Context: Sendable {
        let modelsDirectory: String
        static let fixtures = "Tests/PureVisionTests/Fixtures"

        func model(_ name: String) -> String { (modelsDirectory as NSString).appendingPathComponent(name) }
        func image(_ path: String) throws -> PixelImage { try PixelImage(contentsOfFile: Self.fixtures + "/" + path) }

        /// The frames of a video row: `paths`, or by default the committed 48-frame hand sequence.
        func videoFrames(_ paths: [String]?) throws -> [PixelImage] {
            try (paths ?? (0..<48).map { String(format: "hands/video/frame_%03d.png", $0) }).map(image)
        }
    }

    /// An open task: `run(image, timestamp)` is the synchronous call of its mode (the timestamp is ignored in image
    /// mode), `submit` the live-stream call, whose events go to the handler given to `open`.
    struct Instance {
        var run: (PixelImage, Int) throws -> Void
        var submit: (PixelImage, Int) throws -> Void = { _, _ in }
        var close: () -> Void

        /// An instance whose synchronous call is `image` in image mode and `video` (frame, timestamp) in video mode.
        init(
            _ mode: Mode, image: @escaping (PixelImage) throws -> Void,
            video: @escaping (PixelImage, Int) throws -> Void,
            submit: @escaping (PixelImage, Int) throws -> Void = { _, _ in }, close: @escaping () -> Void
        ) {
            run = mode == .video ? video : { frame, _ in try image(frame) }
            self.submit = submit
            self.close = close
        }
    }

    let name: String
    let modes: [Mode]
    /// The photo for image and live-stream rows, under Tests/PureVisionTests/Fixtures.
    let imagePath: String
    /// The video row's frames under Tests/PureVisionTests/Fixtures, looped; nil for the 48-frame hand sequence.
    var videoPaths: [String]? = nil
    let open: @Sendable (Mode, Context, _ onEvent: @escaping @Sendable (Bool) -> Void) throws -> Instance

    /// Every task on main, one line each.
    static let all: [SoakTask] = [
        faceDetector, handLandmarker, imageClassifier, faceAnalyzer, imageSegmenter, selfieSegmenter,
        poseLandmarker, faceLandmarker, gestureRecognizer, objectDetector, imageEmbedder,
    ]

    static let allModes: [Mode] = [.image, .video, .liveStream]

    /// The live-stream result handler reporting to `onEvent`, or nil in the other modes.
    static func handler<R: Sendable>(
        _ mode: Mode, _ onEvent: @escaping @Sendable (Bool) -> Void
    ) -> (@Sendable (LiveStreamEvent<R>) -> Void)? {
        guard mode == .liveStream else { return nil }
        return { event in onEvent(event.isResult) }
    }

    static let faceDetector = SoakTask(name: "face_detector", modes: allModes, imagePath: "faces/grace_hopper.jpg") {
        mode, context, onEvent in
        let task = try FaceDetector(
            options: FaceDetectorOptions(
                baseOptions: BaseOptions(modelAssetPath: context.model("face_detection_short_range.tflite")),
                runningMode: mode.runningMode, resultHandler: handler(mode, onEvent)))
        return Instance(
            mode, image: { image in _ = try task.detect(image: image) },
            video: { image, t in _ = try task.detect(videoFrame: image, timestampInMilliseconds: t) },
            submit: { image, t in try task.detectAsync(image: image, timestampInMilliseconds: t) }, close: task.close)
    }

    static let handLandmarker = SoakTask(name: "hand_landmarker", modes: allModes, imagePath: "hands/hand_dst.jpg") {
        mode, context, onEvent in
        let task = try HandLandmarker(
            options: HandLandmarkerOptions(
                baseOptions: BaseOptions(modelAssetPath: context.model("hand_landmarker.task")),
                runningMode: mode.runningMode, resultHandler: handler(mode, onEvent)))
        return Instance(
            mode, image: { image in _ = try task.detect(image: image) },
            video: { image, t in _ = try task.detect(videoFrame: image, timestampInMilliseconds: t) },
            submit: { image, t in try task.detectAsync(image: image, timestampInMilliseconds: t) }, close: task.close)
    }

    static let imageClassifier = SoakTask(
        name: "image_classifier", modes: allModes, imagePath: "classifier/skimage_chelsea.png"
    ) { mode, context, onEvent in
        let task = try ImageClassifier(
            options: ImageClassifierOptions(
                baseOptions: BaseOptions(modelAssetPath: context.model("efficientnet_lite0.tflite")),
                runningMode: mode.runningMode, resultHandler: handler(mode, onEvent)))
        return Instance(
            mode, image: { image in _ = try task.classify(image: image) },
            video: { image, t in _ = try task.classify(videoFrame: image, timestampInMilliseconds: t) },
            submit: { image, t in try task.classifyAsync(image: image, timestampInMilliseconds: t) },
            close: task.close)
    }

    /// Landmarks, contours and classification on; tracking in video and live stream.
    static let faceAnalyzer = SoakTask(name: "face_analyzer", modes: allModes, imagePath: "faces/grace_hopper.jpg") {
        mode, context, onEvent in
        let task = try FaceAnalyzer(
            options: FaceAnalyzerOptions(
                modelDirectory: context.modelsDirectory, landmarkMode: .all, contourMode: .all,
                classificationMode: .all, isTrackingEnabled: mode != .image, runningMode: mode.runningMode,
                resultHandler: handler(mode, onEvent)))
        return Instance(
            mode, image: { image in _ = try task.results(in: image) },
            video: { image, t in _ = try task.results(inVideoFrame: image, timestampInMilliseconds: t) },
            submit: { image, t in try task.processAsync(image: image, timestampInMilliseconds: t) },
            close: task.close)
    }

    /// The Tasks selfie segmenter model (256 × 256) with both masks, so a long soak stays short; DeepLab v3 runs the
    /// same code on a larger input.
    static let imageSegmenter = SoakTask(
        name: "image_segmenter", modes: allModes, imagePath: "segmenter/fr_obama.png"
    ) { mode, context, onEvent in
        let task = try ImageSegmenter(
            options: ImageSegmenterOptions(
                baseOptions: BaseOptions(modelAssetPath: context.model("selfie_segmenter.tflite")),
                runningMode: mode.runningMode, outputCategoryMask: true,
                resultHandler: handler(mode, onEvent)))
        return Instance(
            mode, image: { image in _ = try task.segment(image: image) },
            video: { image, t in _ = try task.segment(videoFrame: image, timestampInMilliseconds: t) },
            submit: { image, t in try task.segmentAsync(image: image, timestampInMilliseconds: t) },
            close: task.close)
    }

    /// ML Kit's shape: single image and stream (video) only.
    static let selfieSegmenter = SoakTask(
        name: "selfie_segmenter", modes: [.image, .video], imagePath: "segmenter/fr_obama.png"
    ) { mode, context, _ in
        let task = try SelfieSegmenter(
            options: SelfieSegmenterOptions(
                baseOptions: BaseOptions(modelAssetPath: context.model("selfie_segmentation.tflite")),
                segmenterMode: mode == .video ? .stream : .singleImage))
        return Instance(
            mode, image: { image in _ = try task.process(image) },
            video: { image, t in _ = try task.process(image, timestampInMilliseconds: t) }, close: {})
    }

    /// Segmentation masks on, so the mask projection is part of every row. Its video row loops over photos of one
    /// person at several scales and angles, so it alternates between tracking and detection.
    static let poseLandmarker = SoakTask(
        name: "pose_landmarker", modes: allModes, imagePath: "pose/obama.png",
        videoPaths: ["obama", "obama_scale50", "obama_rot25", "obama_turn90", "basketball", "basketball_rot25"].map {
            "pose/\($0).png"
        }
    ) { mode, context, onEvent in
        let task = try PoseLandmarker(
            options: PoseLandmarkerOptions(
                baseOptions: BaseOptions(modelAssetPath: context.model("pose_landmarker_full.task")),
                runningMode: mode.runningMode, outputSegmentationMasks: true, resultHandler: handler(mode, onEvent)))
        return Instance(
            mode, image: { image in _ = try task.detect(image: image) },
            video: { image, t in _ = try task.detect(videoFrame: image, timestampInMilliseconds: t) },
            submit: { image, t in try task.detectAsync(image: image, timestampInMilliseconds: t) }, close: task.close)
    }

    /// Blendshapes and transformation matrices on; the video row loops over the committed 8-frame face sequence.
    static let faceLandmarker = SoakTask(
        name: "face_landmarker", modes: allModes, imagePath: "face_landmarker/video/frame_000.png",
        videoPaths: (0..<8).map { String(format: "face_landmarker/video/frame_%03d.png", $0) }
    ) { mode, context, onEvent in
        let task = try FaceLandmarker(
            options: FaceLandmarkerOptions(
                baseOptions: BaseOptions(modelAssetPath: context.model("face_landmarker.task")),
                runningMode: mode.runningMode, outputFaceBlendshapes: true, outputFacialTransformationMatrixes: true,
                resultHandler: handler(mode, onEvent)))
        return Instance(
            mode, image: { image in _ = try task.detect(image: image) },
            video: { image, t in _ = try task.detect(videoFrame: image, timestampInMilliseconds: t) },
            submit: { image, t in try task.detectAsync(image: image, timestampInMilliseconds: t) }, close: task.close)
    }

    static let gestureRecognizer = SoakTask(
        name: "gesture_recognizer", modes: allModes, imagePath: "hands/hand_dst.jpg"
    ) { mode, context, onEvent in
        let task = try GestureRecognizer(
            options: GestureRecognizerOptions(
                baseOptions: BaseOptions(modelAssetPath: context.model("gesture_recognizer.task")),
                runningMode: mode.runningMode, resultHandler: handler(mode, onEvent)))
        return Instance(
            mode, image: { image in _ = try task.recognize(image: image) },
            video: { image, t in _ = try task.recognize(videoFrame: image, timestampInMilliseconds: t) },
            submit: { image, t in try task.recognizeAsync(image: image, timestampInMilliseconds: t) },
            close: task.close)
    }

    static let objectDetector = SoakTask(
        name: "object_detector", modes: allModes, imagePath: "detector/opencv_basketball1.png"
    ) { mode, context, onEvent in
        let task = try ObjectDetector(
            options: ObjectDetectorOptions(
                baseOptions: BaseOptions(modelAssetPath: context.model("efficientdet_lite0.tflite")),
                runningMode: mode.runningMode, maxResults: 5, resultHandler: handler(mode, onEvent)))
        return Instance(
            mode, image: { image in _ = try task.detect(image: image) },
            video: { image, t in _ = try task.detect(videoFrame: image, timestampInMilliseconds: t) },
            submit: { image, t in try task.detectAsync(image: image, timestampInMilliseconds: t) }, close: task.close)
    }

    /// Both outputs: L2-normalized and quantized.
    static let imageEmbedder = SoakTask(
        name: "image_embedder", modes: allModes, imagePath: "classifier/skimage_chelsea.png"
    ) { mode, context, onEvent in
        let task = try ImageEmbedder(
            options: ImageEmbedderOptions(
                baseOptions: BaseOptions(modelAssetPath: context.model("efficientnet_lite0_embedder.tflite")),
                runningMode: mode.runningMode, l2Normalize: true, quantize: true, resultHandler: handler(mode, onEvent))
        )
        return Instance(
            mode, image: { image in _ = try task.embed(image: image) },
            video: { image, t in _ = try task.embed(videoFrame: image, timestampInMilliseconds: t) },
            submit: { image, t in try task.embedAsync(image: image, timestampInMilliseconds: t) }, close: task.close)
    }
}

extension LiveStreamEvent {
    /// Whether the frame was answered (not dropped or failed).
    var isResult: Bool {
        if case .result = self { return true }
        return false
    }
}
