import PureVisionEngine
import PureVisionImage

/// A landmark model run on one rotated region of an image at a time (the hand, pose and face landmark models of
/// the two-stage tasks): the loaded model, its input size, and the converter that stretches the region into that
/// input with a replicated border (MediaPipe's `ImageToTensorCalculator` with `keep_aspect_ratio` false and
/// `BORDER_REPLICATE`, as all of those graphs configure it).
struct RegionLandmarkModel {
    let model: LoadedModel
    let inputSize: (width: Int, height: Int)
    let converter: ImageToTensorConverter
    /// Names the model in per-frame errors ("the hand landmark model"), made once so that a frame builds no string.
    private let errorName: String

    /// Checks that `model` takes one float RGB image and prepares the converter into it.
    /// - Parameters:
    ///   - role: names the model in errors ("hand landmark model").
    ///   - rangeFromMetadata: whether the input range comes from the model's metadata when it has one; [0, 1]
    ///     otherwise, and always when false (the legacy face mesh graph fixes it).
    init(model: LoadedModel, role: String, rangeFromMetadata: Bool = true) throws(VisionTaskError) {
        self.model = model
        inputSize = try ImageToTensorConverter.floatRGBInputSize(of: model.interpreter, role: role)
        let range = rangeFromMetadata ? try model.inputRange() : nil
        converter = try ImageToTensorConverter.checked(
            width: inputSize.width, height: inputSize.height, keepAspectRatio: false, border: .replicate,
            range: range ?? (0, 1))
        errorName = "the \(role)"
    }

    /// The element counts of the model's outputs, in output order.
    var outputElementCounts: [Int] { model.interpreter.outputs.map { $0.shape.elementCount } }

    /// Runs the model on `rect` of `image` and returns what `read` makes of its outputs, given the session after
    /// the run and the crop's transform; nil, without running, for a region of zero size (MediaPipe skips those
    /// silently).
    func run<Estimate>(
        _ image: PixelImage, rect: NormalizedRect,
        _ read: (borrowing Interpreter.Session, ImageToTensorResult) throws(VisionTaskError) -> Estimate?
    ) throws(VisionTaskError) -> Estimate? {
        guard rect.width > 0, rect.height > 0 else { return nil }
        return try model.interpreter.withSession { session throws(VisionTaskError) -> Estimate? in
            let transform = try converter.convert(image, rect: rect, intoFloatInputOf: session, model: errorName)
            session.invoke()
            return try read(session, transform)
        }
    }
}
