import PureVision

/// One category of a classification or detection: MediaPipe's `ResultCategory` (`MPPCategory`) — `index`,
/// `score`, `categoryName`, `displayName`. PureVision's own type has exactly these members and is used as is.
public typealias ResultCategory = PureVision.ResultCategory

/// The categories of one classifier head: MediaPipe's `Classifications` (`MPPClassifications`) — `headIndex`,
/// `headName`, `categories`. PureVision's own type has exactly these members and is used as is.
public typealias Classifications = PureVision.Classifications

/// The classifications of one image or frame: MediaPipe's `ClassificationResult` (`MPPClassificationResult`).
public final class ClassificationResult: Sendable {
    /// One entry per classifier head, in output order.
    public let classifications: [Classifications]
    /// The frame's timestamp (0 for image mode).
    public let timestampInMilliseconds: Int

    /// Creates a result from its parts, as MediaPipe's initializer does.
    public init(classifications: [Classifications], timestampInMilliseconds: Int) {
        self.classifications = classifications
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}
