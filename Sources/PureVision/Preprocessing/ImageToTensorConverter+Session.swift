import PureVisionEngine
import PureVisionImage

extension ImageToTensorConverter {
    /// Converts the region `rect` of `image` into the session's float32 input 0, the first step of every model
    /// run of a task.
    /// - Parameter model: names the model in the error for an empty input (`"the palm detector"`).
    /// - Returns: where the region landed, to map the model's outputs back to the image.
    /// - Throws: `VisionTaskError.model` for an empty input, the task error of a `PreprocessingError`.
    func convert(
        _ image: PixelImage, rect: NormalizedRect?, intoFloatInputOf session: borrowing Interpreter.Session,
        model: String
    ) throws(VisionTaskError) -> ImageToTensorResult {
        guard let input = session.floatInput(0).baseAddress else { throw .model("\(model)'s input is empty") }
        do throws(PreprocessingError) {
            return try convert(image, rect: rect, into: input, pool: session.pool)
        } catch {
            throw FaceDetectionPipeline.taskError(error)
        }
    }

    /// Converts the region `rect` of `image` into the session's uint8 (or byte-sized) input 0.
    /// - Parameter model: names the model in the error for an empty input.
    /// - Returns: where the region landed.
    /// - Throws: `VisionTaskError.model` for an empty input, the task error of a `PreprocessingError`.
    func convert(
        _ image: PixelImage, rect: NormalizedRect?, intoByteInputOf session: borrowing Interpreter.Session,
        model: String
    ) throws(VisionTaskError) -> ImageToTensorResult {
        guard let input = session.input(0).bindMemory(to: UInt8.self).baseAddress else {
            throw .model("\(model)'s input is empty")
        }
        do throws(PreprocessingError) {
            return try convert(image, rect: rect, into: input, pool: session.pool)
        } catch {
            throw FaceDetectionPipeline.taskError(error)
        }
    }
}
