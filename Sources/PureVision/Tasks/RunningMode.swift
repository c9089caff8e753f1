/// How a vision task is fed, as in MediaPipe Tasks.
public enum RunningMode: String, Sendable, Hashable, CaseIterable {
    /// Independent images, one call each (`detect(image:)`).
    case image
    /// Decoded video frames with strictly increasing timestamps (`detect(videoFrame:timestampInMilliseconds:)`).
    /// Tasks that track (hands) carry state from frame to frame.
    case video
    /// A live camera feed (`detectAsync(image:timestampInMilliseconds:)`): calls return at once, results arrive on
    /// the task's delivery thread, and frames that arrive while the task is busy may be dropped (reported).
    case liveStream
}

/// Where a task's model comes from, and how it runs.
public struct BaseOptions: Sendable, Hashable {
    /// Path of a `.tflite` model or `.task` bundle.
    public var modelAssetPath: String?
    /// The bytes of a model or bundle; used when `modelAssetPath` is nil.
    public var modelAssetBuffer: [UInt8]?
    /// Threads each inference may use (≥ 1), the calling thread included; a task with several models runs them all
    /// on one pool of this many threads. Default 1.
    public var threadCount: Int

    /// Creates base options.
    public init(modelAssetPath: String? = nil, modelAssetBuffer: [UInt8]? = nil, threadCount: Int = 1) {
        self.modelAssetPath = modelAssetPath
        self.modelAssetBuffer = modelAssetBuffer
        self.threadCount = threadCount
    }
}
