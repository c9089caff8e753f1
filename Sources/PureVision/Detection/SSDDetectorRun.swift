import PureVisionImage

extension LoadedModel {
    /// One run of an SSD-style detector (BlazeFace, the palm and pose detectors): `rect` of `image` converted into
    /// the model's input, the model invoked, its boxes and scores decoded against `anchors` — before suppression,
    /// in the tensor's normalized coordinates, with the preprocessing's transform to map them back.
    /// - Parameter stage: names the detector in a decoding error ("palm", "pose", "face").
    func detectSSD(
        _ image: PixelImage, rect: NormalizedRect?, converter: ImageToTensorConverter, boxesOutput: Int,
        scoresOutput: Int, anchors: [SSDAnchor], options: DetectionDecoderOptions, stage: String
    ) throws(VisionTaskError) -> (detections: [NormalizedDetection], transform: ImageToTensorResult) {
        try interpreter.withSession { session throws(VisionTaskError) -> ([NormalizedDetection], ImageToTensorResult) in
            let transform = try converter.convert(
                image, rect: rect, intoFloatInputOf: session, model: "the \(stage) detector")
            session.invoke()
            do throws(DetectionError) {
                let found = try DetectionDecoder.decode(
                    rawBoxes: session.floatOutput(boxesOutput), rawScores: session.floatOutput(scoresOutput),
                    anchors: anchors, options: options)
                return (found, transform)
            } catch {
                throw .model("\(stage) decoding: \(error)")
            }
        }
    }
}
