import PureVisionEngine
import PureVisionImage

/// The one RGB image input, `[1, H, W, 3]`, of a classifier, embedder, segmenter or object detector model, and the
/// converter that fills it from an image region (stretched, MediaPipe's `ImageToTensorCalculator` without
/// letterboxing): a float32 input gets the pixels mapped to a range, a uint8 input the raw 0…255 values.
struct ImageModelInput: Sendable {
    /// Fills the input from an image region.
    let converter: ImageToTensorConverter
    /// Whether the input holds bytes (uint8, or int8 written as bytes and remapped by the caller) rather than floats.
    let isByteInput: Bool

    /// The model's only input, checked to be an RGB image `[1, H, W, 3]`.
    /// - Parameter task: the task's name with its article, for the error (`"an image embedder"`).
    /// - Throws: `VisionTaskError.model` for any other input signature.
    static func tensor(of interpreter: Interpreter, task: String) throws(VisionTaskError) -> TensorDescription {
        guard interpreter.inputs.count == 1, let input = interpreter.inputs.first, input.shape.rank == 4,
            input.shape[0] == 1, input.shape[3] == 3
        else {
            throw .model("\(task) takes one [1, H, W, 3] RGB input; this model has \(interpreter.inputs)")
        }
        return input
    }

    /// The input of a model whose float32 input needs the metadata's `NormalizationOptions`, as MediaPipe's
    /// embedder and object detector require; a uint8 input takes the raw pixels.
    /// - Throws: `VisionTaskError.missingMetadata` for a float32 input without normalization metadata, `.model`
    ///   for an input of another type.
    static func normalizedByMetadata(_ input: TensorDescription, of loaded: LoadedModel) throws(VisionTaskError)
        -> ImageModelInput
    {
        switch input.elementType {
        case .uint8:
            return try ImageModelInput(input, isByteInput: true, range: (0, 1))
        case .float32:
            guard let range = try loaded.inputRange() else {
                throw .missingMetadata(field: "NormalizationOptions of input '\(input.name)'")
            }
            return try ImageModelInput(input, isByteInput: false, range: range)
        default:
            throw .model(
                "input '\(input.name)' is \(input.elementType): only uint8 and float32 image inputs are supported")
        }
    }

    /// An input filled by stretching the region to the tensor's size, pixels outside the image set by `border`.
    /// - Throws: `VisionTaskError.model` when the tensor's size or `range` is unusable.
    init(
        _ input: TensorDescription, isByteInput: Bool, range: (min: Float, max: Float),
        border: BorderMode = .replicate
    ) throws(VisionTaskError) {
        self.isByteInput = isByteInput
        converter = try ImageToTensorConverter.checked(
            width: input.shape[2], height: input.shape[1], keepAspectRatio: false, border: border, range: range)
    }

    /// Runs one session of `interpreter` with `frame` written into input 0: the region its processing options give
    /// (a region of interest only where `roiAllowed`, else refused), turned by their rotation and the image's
    /// orientation. `body` gets the session and where the region landed, and runs the model itself.
    /// - Throws: `VisionTaskError` for options or an image the preprocessing refuses, or what `body` throws.
    func withFrame<Result>(
        _ frame: VisionFrame, roiAllowed: Bool, in interpreter: Interpreter,
        _ body: (borrowing Interpreter.Session, ImageToTensorResult) throws(VisionTaskError) -> Result
    ) throws(VisionTaskError) -> Result {
        let rect = try ImageProcessingOptions.imageRect(
            of: frame.image, processing: frame.processing, roiAllowed: roiAllowed)
        return try interpreter.withSession { session throws(VisionTaskError) -> Result in
            try body(session, try write(frame.image, rect: rect, into: session))
        }
    }

    /// Writes the region `rect` of `image` into the session's input 0.
    /// - Returns: where the region landed, to map the model's outputs back to the image.
    /// - Throws: `VisionTaskError` for an image the converter refuses (a mirrored orientation, bad options).
    @discardableResult
    func write(_ image: PixelImage, rect: NormalizedRect, into session: borrowing Interpreter.Session)
        throws(VisionTaskError) -> ImageToTensorResult
    {
        isByteInput
            ? try converter.convert(image, rect: rect, intoByteInputOf: session, model: "the model")
            : try converter.convert(image, rect: rect, intoFloatInputOf: session, model: "the model")
    }
}
