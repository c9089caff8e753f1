/// What every vision task's options add to `TaskOptions`, with MediaPipe's default: the running mode, which each of
/// MediaPipe's vision options classes declares (`MPPFaceDetectorOptions.runningMode` …).
///
/// A base class on purpose, for the options classes of this module's tasks (its own initializer is `TaskOptions`'s
/// `init()`); create the task's own options class.
public class RunningModeTaskOptions: TaskOptions {
    /// How the task is fed. Default `.image`.
    public var runningMode: RunningMode = .image
}
