import PureVisionEngine
import PureVisionImage
import PureVisionTFLite

/// Why a vision task could not be created or could not process a frame.
public enum VisionTaskError: Error, Equatable, CustomStringConvertible {
    /// An option is out of range or inconsistent; `reason` says how.
    case invalidOption(name: String, reason: String)
    /// The model could not be loaded or does not fit the task.
    case model(String)
    /// The method called does not match the task's running mode (MediaPipe: "Task is not initialized with the …
    /// mode").
    case wrongRunningMode(expected: RunningMode, actual: RunningMode)
    /// A video or live-stream timestamp is not greater than the previous one.
    case nonMonotonicTimestamp(previous: Int, given: Int)
    /// Live-stream mode needs a result handler, and the other modes must not have one.
    case resultHandler(String)
    /// The task does not accept a region of interest.
    case regionOfInterestNotSupported
    /// The input image is unusable (e.g. a mirrored orientation).
    case image(ImageError)
    /// The task was closed.
    case closed
    /// The model's metadata lacks an entry the task needs; `field` names it (e.g. `DETECTOR_METADATA`).
    case missingMetadata(field: String)

    public var description: String {
        switch self {
        case .invalidOption(let name, let reason): "invalid option \(name): \(reason)"
        case .model(let message): "model: \(message)"
        case .wrongRunningMode(let expected, let actual):
            "Task is not initialized with the \(expected) mode (it is in \(actual) mode)."
        case .nonMonotonicTimestamp(let previous, let given):
            "Input timestamp must be monotonically increasing: \(given) ms after \(previous) ms."
        case .resultHandler(let message): message
        case .regionOfInterestNotSupported: "This task doesn't support region-of-interest."
        case .image(let error): "image: \(error)"
        case .closed: "the task has been closed"
        case .missingMetadata(let field): "model metadata: missing \(field)"
        }
    }

    static func from(_ error: InterpreterError) -> VisionTaskError { .model("\(error)") }
    static func from(_ error: ModelFormatError) -> VisionTaskError { .model("\(error)") }
}
