import PureVision
import PureVisionImage

/// The ObjectDetector and ImageEmbedder pipelines, on a committed photo with people (decoded once, outside the
/// timing).
extension Bench {
    /// ObjectDetector with efficientdet_lite0 and MediaPipe's default options (every suppression survivor).
    func measureObjectDetector(threads: Int) throws -> Workload {
        let detector = try ObjectDetector(
            options: ObjectDetectorOptions(
                baseOptions: BaseOptions(modelAssetPath: model("efficientdet_lite0.tflite"), threadCount: threads)))
        let image = try PixelImage(contentsOfFile: Self.fixtures + "/detector/opencv_basketball1.png")
        return { _ = try detector.detect(image: image) }
    }

    /// ImageEmbedder with efficientnet_lite0_embedder and default options.
    func measureImageEmbedder(threads: Int) throws -> Workload {
        let embedder = try ImageEmbedder(
            options: ImageEmbedderOptions(
                baseOptions: BaseOptions(
                    modelAssetPath: model("efficientnet_lite0_embedder.tflite"), threadCount: threads)))
        let image = try PixelImage(contentsOfFile: Self.fixtures + "/detector/skimage_chelsea.png")
        return { _ = try embedder.embed(image: image) }
    }
}
