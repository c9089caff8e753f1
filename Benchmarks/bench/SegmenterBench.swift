import Foundation
import PureVision
import PureVisionImage

/// ImageSegmenter pipelines on a committed portrait (Grace Hopper, 512 × 600): the image-mode call with MediaPipe's
/// default outputs (confidence masks at the image's size) plus the category mask.
extension Bench {
    func measureSegmenterSelfie(threads: Int) throws -> Workload {
        try measureSegmenter(model: "selfie_segmenter.tflite", threads: threads)
    }

    func measureSegmenterDeeplab(threads: Int) throws -> Workload {
        try measureSegmenter(model: "deeplab_v3.tflite", threads: threads)
    }

    private func measureSegmenter(model: String, threads: Int) throws -> Workload {
        let segmenter = try ImageSegmenter(
            options: ImageSegmenterOptions(
                baseOptions: BaseOptions(
                    modelAssetPath: (options.modelsDirectory as NSString).appendingPathComponent(model),
                    threadCount: threads),
                outputCategoryMask: true, outputConfidenceMasks: true))
        let image = try PixelImage(contentsOfFile: Self.fixtures + "/faces/grace_hopper.jpg")
        return { _ = try segmenter.segment(image: image) }
    }
}
