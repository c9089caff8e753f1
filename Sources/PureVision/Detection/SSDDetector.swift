import PureVisionImage

/// A loaded SSD detector (the palm and pose detectors) ready to run on frames: its model, the converter that
/// letterboxes an image region into its square input, its anchors and decoder options, and which outputs hold the
/// raw boxes and scores.
struct SSDDetector {
    let model: LoadedModel
    let converter: ImageToTensorConverter
    let anchors: [SSDAnchor]
    let decoderOptions: DetectionDecoderOptions
    let boxesOutput: Int
    let scoresOutput: Int

    /// Checks that `model` takes one `inputSide × inputSide` float image and outputs `[1, anchors, boxCoordinates]`
    /// boxes and `[1, anchors, 1]` scores, generates the anchors and prepares the input converter: the region
    /// letterboxed with a zero border, values in the range the model's metadata gives, else `defaultRange`.
    /// - Parameter role: names the model in errors ("hand detector").
    init(
        model: LoadedModel, role: String, inputSide: Int, anchorOptions: SSDAnchorOptions, boxCoordinates: Int,
        decoderOptions: DetectionDecoderOptions, defaultRange: (min: Float, max: Float)
    ) throws(VisionTaskError) {
        self.model = model
        let input = try ImageToTensorConverter.floatRGBInputSize(of: model.interpreter, role: role)
        guard input.width == inputSide, input.height == inputSide else {
            throw .model("the \(role) must take a \(inputSide)×\(inputSide) input, this one takes \(input)")
        }
        do throws(DetectionError) {
            anchors = try SSDAnchors.generate(anchorOptions)
        } catch {
            throw .model("anchors: \(error)")
        }
        let count = anchors.count
        let outputs = model.interpreter.outputs
        guard let boxes = outputs.firstIndex(where: { $0.shape.dimensions == [1, count, boxCoordinates] }),
            let scores = outputs.firstIndex(where: { $0.shape.dimensions == [1, count, 1] })
        else {
            throw .model(
                "the \(role) must output [1, \(count), \(boxCoordinates)] boxes and [1, \(count), 1] scores; "
                    + "it outputs \(outputs.map(\.shape))")
        }
        boxesOutput = boxes
        scoresOutput = scores
        self.decoderOptions = decoderOptions
        converter = try ImageToTensorConverter.checked(
            width: inputSide, height: inputSide, keepAspectRatio: true, border: .zero,
            range: try model.inputRange() ?? defaultRange)
    }

    /// The detector on `rect` of `image`: its decoded detections before suppression, in the tensor's normalized
    /// coordinates, and the preprocessing's transform to map them back.
    /// - Parameter stage: names the detector in errors ("palm").
    func detect(_ image: PixelImage, rect: NormalizedRect, stage: String) throws(VisionTaskError) -> (
        detections: [NormalizedDetection], transform: ImageToTensorResult
    ) {
        try model.detectSSD(
            image, rect: rect, converter: converter, boxesOutput: boxesOutput, scoresOutput: scoresOutput,
            anchors: anchors, options: decoderOptions, stage: stage)
    }
}
