import Foundation

extension VisionTaskError: LocalizedError {
    /// The same text as `description`, so that `error.localizedDescription`, which ML Kit's and MediaPipe's guides
    /// print, says what went wrong (and an `NSError` made from the error carries it).
    public var errorDescription: String? { description }
}
