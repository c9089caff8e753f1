import Foundation
import PureVision
import PureVisionImage

/// The pose landmarker pipelines (image mode on one photo; video mode per frame over the committed sequence).
extension Bench {
    /// Image mode on the Obama portrait (384×480): detection and the landmark model on every call, no masks.
    func measurePoseImage(threads: Int) throws -> Workload {
        let landmarker = try PoseLandmarker(
            options: PoseLandmarkerOptions(
                baseOptions: BaseOptions(
                    modelAssetPath: (options.modelsDirectory as NSString).appendingPathComponent(
                        "pose_landmarker_full.task"), threadCount: threads)))
        let image = try PixelImage(contentsOfFile: Self.fixtures + "/pose/obama.png")
        return { _ = try landmarker.detect(image: image) }
    }

    /// Video mode over the committed 20-frame sequence (256×256), looped: after the first frame tracking skips
    /// detection while the person stays tracked, and the landmarks are smoothed.
    func measurePoseVideo(threads: Int) throws -> Workload {
        let landmarker = try PoseLandmarker(
            options: PoseLandmarkerOptions(
                baseOptions: BaseOptions(
                    modelAssetPath: (options.modelsDirectory as NSString).appendingPathComponent(
                        "pose_landmarker_full.task"), threadCount: threads),
                runningMode: .video))
        let frames = try (0..<20).map { i in
            try PixelImage(contentsOfFile: Self.fixtures + String(format: "/pose/video/single_%03d.png", i))
        }
        var index = 0
        return {
            _ = try landmarker.detect(videoFrame: frames[index % frames.count], timestampInMilliseconds: 33 * index)
            index += 1
        }
    }
}
