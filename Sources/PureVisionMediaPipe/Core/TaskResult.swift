/// What every task's result has: MediaPipe's `TaskResult` (`MPPTaskResult`), the base of `FaceDetectorResult`,
/// `ImageClassifierResult`, `HandLandmarkerResult` …
public class TaskResult: @unchecked Sendable {
    // @unchecked: Swift checks only final classes; the one stored property is immutable, and each result class is
    // final with immutable stored properties.
    /// The frame's timestamp (0 in image mode).
    public let timestampInMilliseconds: Int

    /// Creates a result, as MediaPipe's `init(timestampInMilliseconds:)`.
    public init(timestampInMilliseconds: Int) {
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}
