import Foundation
import PureVision
import PureVisionImage

/// ImageSegmenter pipelines on a committed portrait (Grace Hopper, 512 × 600): the image-mode call with MediaPipe's
/// default outputs (confidence masks at the image's size) plus the category mask.
extension Bench {
    func measureSegmenterSelfie(threads: Int) throws -> [Double] {
        try measureSegmenter(model: "selfie_segmenter.tflite", threads: threads)
    }

    func measureSegmenterDeeplab(threads: Int) throws -> [Double] {
        try measureSegmenter(model: "deeplab_v3.tflite", threads: threads)
    }

    private func measureSegmenter(model: String, threads: Int) throws -> [Double] {
        let segmenter = try ImageSegmenter(
            options: ImageSegmenterOptions(
                baseOptions: BaseOptions(
                    modelAssetPath: (options.modelsDirectory as NSString).appendingPathComponent(model),
                    threadCount: threads),
                outputCategoryMask: true, outputConfidenceMasks: true))
        let image = try PixelImage(contentsOfFile: Self.fixtures + "/faces/grace_hopper.jpg")
        try warmUp { _ = try segmenter.segment(image: image) }
        var times: [Double] = []
        for _ in 0..<options.runs {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try segmenter.segment(image: image)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return times
    }
}
