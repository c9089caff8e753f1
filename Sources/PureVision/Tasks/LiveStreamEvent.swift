import PureVisionImage

/// What a live-stream task reports for each frame it accepted, in timestamp order on its delivery thread.
public enum LiveStreamEvent<Result: Sendable>: Sendable {
    /// The frame was processed.
    case result(Result, image: PixelImage, timestampInMilliseconds: Int)
    /// The frame was replaced by a newer one while the task was busy, and not processed.
    case dropped(timestampInMilliseconds: Int)
    /// Processing the frame failed.
    case failed(VisionTaskError, timestampInMilliseconds: Int)

    /// The frame's timestamp.
    public var timestampInMilliseconds: Int {
        switch self {
        case .result(_, _, let t), .dropped(let t), .failed(_, let t): t
        }
    }
}
