import Foundation
import PureVision
import PureVisionImage

/// End-to-end task latency, image already decoded (as MediaPipe's figures are taken): preprocessing, inference and
/// post-processing, per call.
extension Bench {
    /// The committed test photos the pipelines run on, relative to the package root.
    static let fixtures = "Tests/PureVisionTests/Fixtures"

    /// Every task pipeline the bench times, by name.
    var pipelines: [(name: String, prepare: (Int) throws -> Workload)] {
        [
            ("face_detector", measureFaceDetector),
            ("hand_landmarker_image", measureHandsImage),
            ("hand_landmarker_video_per_frame", measureHandsVideo),
            ("image_classifier", measureClassifier),
            ("object_detector", measureObjectDetector),
            ("image_embedder", measureImageEmbedder),
            ("gesture_recognizer_video_per_frame", measureGestureRecognizerVideo),
            ("image_segmenter_selfie", measureSegmenterSelfie), ("image_segmenter_deeplab", measureSegmenterDeeplab),
            ("face_landmarker_image", measureFaceLandmarkerImage),
            ("face_landmarker_video_per_frame", measureFaceLandmarkerVideo),
            ("pose_landmarker_image", measurePoseImage), ("pose_landmarker_video_per_frame", measurePoseVideo),
        ]
    }

    /// Times every pipeline `--filter` keeps, its thread counts alternating (``timeAlternating(_:)``).
    func measurePipelines() throws {
        for pipeline in pipelines where options.keeps(pipeline.name) {
            SystemInfo.resetPeakResident()
            let timings = try timeAlternating(options.threadCounts.map(pipeline.prepare))
            for (index, threads) in options.threadCounts.enumerated() {
                report(name: pipeline.name, kind: "pipeline", threads: threads, timing: timings[index], arenaBytes: 0)
            }
        }
    }

    func model(_ name: String) -> String { (options.modelsDirectory as NSString).appendingPathComponent(name) }

    private func measureFaceDetector(threads: Int) throws -> Workload {
        let detector = try FaceDetector(
            options: FaceDetectorOptions(
                baseOptions: BaseOptions(
                    modelAssetPath: model("face_detection_short_range.tflite"), threadCount: threads)))
        let image = try PixelImage(contentsOfFile: Self.fixtures + "/faces/grace_hopper.jpg")
        return { _ = try detector.detect(image: image) }
    }

    private func measureHandsImage(threads: Int) throws -> Workload {
        let landmarker = try HandLandmarker(
            options: HandLandmarkerOptions(
                baseOptions: BaseOptions(modelAssetPath: model("hand_landmarker.task"), threadCount: threads)))
        let image = try PixelImage(contentsOfFile: Self.fixtures + "/hands/hand_dst.jpg")
        return { _ = try landmarker.detect(image: image) }
    }

    /// Video mode over the committed 48-frame sequence, looped; after the first frame tracking skips palm
    /// detection while the hand stays tracked.
    private func measureHandsVideo(threads: Int) throws -> Workload {
        let landmarker = try HandLandmarker(
            options: HandLandmarkerOptions(
                baseOptions: BaseOptions(modelAssetPath: model("hand_landmarker.task"), threadCount: threads),
                runningMode: .video))
        let frames = try (0..<48).map { i in
            try PixelImage(contentsOfFile: Self.fixtures + String(format: "/hands/video/frame_%03d.png", i))
        }
        var index = 0
        return {
            _ = try landmarker.detect(videoFrame: frames[index % frames.count], timestampInMilliseconds: 33 * index)
            index += 1
        }
    }

    private func measureClassifier(threads: Int) throws -> Workload {
        let classifier = try ImageClassifier(
            options: ImageClassifierOptions(
                baseOptions: BaseOptions(modelAssetPath: model("efficientnet_lite0.tflite"), threadCount: threads)))
        let image = try PixelImage(contentsOfFile: Self.fixtures + "/classifier/skimage_chelsea.png")
        return { _ = try classifier.classify(image: image) }
    }
}
