import Foundation
import PureVision
import PureVisionImage

/// The FaceLandmarker pipelines, image already decoded: `face_landmarker_image` (one photo, image mode, blendshapes
/// and transformation matrix on) and `face_landmarker_video_per_frame` (the committed head-movement sequence in
/// video mode, looped, blendshapes and matrix on; detection runs only when no face is tracked).
extension Bench {
    func measureFaceLandmarkerImage(threads: Int) throws -> Workload {
        let landmarker = try FaceLandmarker(options: faceLandmarkerOptions(threads: threads, mode: .image))
        let image = try PixelImage(contentsOfFile: Self.fixtures + "/faces/grace_hopper.jpg")
        return { _ = try landmarker.detect(image: image) }
    }

    func measureFaceLandmarkerVideo(threads: Int) throws -> Workload {
        let landmarker = try FaceLandmarker(options: faceLandmarkerOptions(threads: threads, mode: .video))
        let frames = try (0..<24).map { i in
            try PixelImage(contentsOfFile: Self.fixtures + String(format: "/face_landmarker/video/frame_%03d.png", i))
        }
        var index = 0
        return {
            _ = try landmarker.detect(videoFrame: frames[index % frames.count], timestampInMilliseconds: 33 * index)
            index += 1
        }
    }

    private func faceLandmarkerOptions(threads: Int, mode: RunningMode) -> FaceLandmarkerOptions {
        FaceLandmarkerOptions(
            baseOptions: BaseOptions(
                modelAssetPath: (options.modelsDirectory as NSString).appendingPathComponent("face_landmarker.task"),
                threadCount: threads),
            runningMode: mode, outputFaceBlendshapes: true, outputFacialTransformationMatrixes: true)
    }
}
