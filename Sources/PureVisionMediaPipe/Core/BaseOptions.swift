import PureVision

/// Where a task runs its model: MediaPipe's `Delegate` (`MPPDelegate`).
///
/// PureVision has one engine, on the CPU: `.GPU` is accepted so that MediaPipe code compiles and runs unchanged,
/// and the task then runs on the CPU, with the same results `.CPU` gives.
public enum Delegate: Sendable, Hashable {
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// Run on the CPU (MediaPipe's default; MediaPipe's spelling, as `.GPU`).
    case CPU
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// MediaPipe's GPU delegate. Accepted, but PureVision runs on the CPU: there is no GPU engine.
    case GPU
}

/// The running modes of a vision task: MediaPipe's `RunningMode` (`MPPRunningMode`), `.image`, `.video` and
/// `.liveStream`, the same enumeration as PureVision's own.
public typealias RunningMode = PureVision.RunningMode

/// The model a task loads and where it runs: MediaPipe's `BaseOptions` (`MPPBaseOptions`), a class so that
/// `options.baseOptions.modelAssetPath = path` reads as in MediaPipe's guides.
public final class BaseOptions {
    /// The path of the `.task` bundle or `.tflite` model. Default empty (then a task refuses to load).
    public var modelAssetPath: String = ""
    /// Where the model runs. Default `.CPU`; `.GPU` runs on the CPU too (see `Delegate`).
    public var delegate: Delegate = .CPU

    /// Creates base options with MediaPipe's defaults.
    public init() {}

    /// PureVision's base options for these values.
    var native: PureVision.BaseOptions {
        PureVision.BaseOptions(modelAssetPath: modelAssetPath.isEmpty ? nil : modelAssetPath)
    }
}

/// What every task's options have: MediaPipe's `TaskOptions` (`MPPTaskOptions`), the base of
/// `HandLandmarkerOptions`, `ImageClassifierOptions`, `FaceDetectorOptions` …
open class TaskOptions {
    /// The model and where it runs.
    public var baseOptions: BaseOptions = BaseOptions()

    /// Creates options with MediaPipe's defaults.
    public init() {}
}
