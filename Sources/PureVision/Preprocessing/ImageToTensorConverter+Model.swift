import PureVisionEngine
import PureVisionImage

// What every task's pipeline asks of its models' image inputs, in the task's error type.
extension ImageToTensorConverter {
    /// The size of `interpreter`'s only input, checked to be one float32 RGB image `[1, H, W, 3]`.
    /// - Parameter role: names the model in the error ("hand landmark model").
    /// - Throws: `VisionTaskError.model` for any other input signature.
    static func floatRGBInputSize(of interpreter: Interpreter, role: String) throws(VisionTaskError) -> (
        width: Int, height: Int
    ) {
        guard interpreter.inputs.count == 1, let input = interpreter.inputs.first, input.elementType == .float32,
            input.shape.rank == 4, input.shape[0] == 1, input.shape[3] == 3
        else {
            throw .model("the \(role) must take one float32 [1, H, W, 3] input; it takes \(interpreter.inputs)")
        }
        return (input.shape[2], input.shape[1])
    }

    /// A converter to a `width × height` input; options it refuses are `VisionTaskError.model`.
    static func checked(
        width: Int, height: Int, keepAspectRatio: Bool, border: BorderMode, range: (min: Float, max: Float)
    ) throws(VisionTaskError) -> ImageToTensorConverter {
        do throws(PreprocessingError) {
            return try ImageToTensorConverter(
                options: ImageToTensorOptions(
                    outputWidth: width, outputHeight: height, keepAspectRatio: keepAspectRatio, border: border,
                    range: range))
        } catch {
            throw .model("\(error)")
        }
    }
}
