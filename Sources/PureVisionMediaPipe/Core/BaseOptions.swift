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
    ///
    /// Declared `String!` so that both spellings apps use compile unchanged: MediaPipe's guides assign what
    /// `Bundle.main.path(forResource:ofType:)` returns, a `String?` (`options.baseOptions.modelAssetPath = modelPath`),
    /// and code written against MediaPipe's `String` property reads it as one
    /// (`let path: String = options.baseOptions.modelAssetPath`, `modelAssetPath.isEmpty`). Assigning nil stores the
    /// empty string, so reading never finds nil and never traps. The one difference from a `String` property: a
    /// constant declared without a type (`let path = options.baseOptions.modelAssetPath`) is a `String?`.
    public var modelAssetPath: String! {
        get { storedModelAssetPath }
        set { storedModelAssetPath = newValue ?? "" }
    }
    private var storedModelAssetPath = ""
    /// Where the model runs. Default `.CPU`; `.GPU` runs on the CPU too (see `Delegate`).
    public var delegate: Delegate = .CPU

    /// Creates base options with MediaPipe's defaults.
    public init() {}

    /// PureVision's base options for these values.
    var native: PureVision.BaseOptions {
        PureVision.BaseOptions(modelAssetPath: storedModelAssetPath.isEmpty ? nil : storedModelAssetPath)
    }
}

/// What every task's options have: MediaPipe's `TaskOptions` (`MPPTaskOptions`), the base of
/// `HandLandmarkerOptions`, `ImageClassifierOptions`, `FaceDetectorOptions` …
open class TaskOptions {
    /// The model and where it runs.
    public var baseOptions: BaseOptions = BaseOptions()

    /// Creates options with MediaPipe's defaults (every task's options class has this initializer, which
    /// `init(modelPath:)` uses).
    public required init() {}
}
