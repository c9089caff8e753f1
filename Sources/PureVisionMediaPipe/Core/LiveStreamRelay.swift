import Foundation
import PureVision

/// Hands a PureVision task's live-stream events to a MediaPipe-style delegate.
///
/// Holds the delegate weakly (MediaPipe's options hold it weakly and so does its task) and the compatibility task
/// weakly (the native task, which owns this relay through its result handler, must not keep it alive). A dropped
/// frame is not reported, as in MediaPipe, which drops frames silently; a failed one is reported with its error.
final class LiveStreamRelay<Task: AnyObject>: @unchecked Sendable {
    // @unchecked: both weak references are read and written under `lock`.
    private let lock = NSLock()
    private weak var task: Task?
    private weak var delegate: AnyObject?

    /// Creates a relay for `delegate`; `attach(_:)` names the task once it exists.
    init(delegate: AnyObject?) { self.delegate = delegate }

    /// Sets the task passed to the delegate.
    func attach(_ task: Task) {
        lock.lock()
        self.task = task
        lock.unlock()
    }

    /// Calls `deliver(task, delegate, result, timestamp, error)` for a processed or failed frame, on the native
    /// task's delivery thread; nothing for a dropped frame or once the task or delegate is gone.
    func relay<Native, Delegate>(
        _ event: LiveStreamEvent<Native>, to _: Delegate.Type,
        deliver: (Task, Delegate, Native?, Int, (any Error)?) -> Void
    ) {
        lock.lock()
        let task = self.task
        let delegate = self.delegate as? Delegate
        lock.unlock()
        guard let task, let delegate else { return }
        switch event {
        case .result(let result, _, let timestamp): deliver(task, delegate, result, timestamp, nil)
        case .failed(let error, let timestamp): deliver(task, delegate, nil, timestamp, error)
        case .dropped: return
        }
    }
}

/// MediaPipe's rule for the live-stream delegate: required in `.liveStream` mode, refused in the others.
enum LiveStreamDelegateRule {
    /// - Throws: `VisionTaskError.resultHandler` with MediaPipe's message when the rule is broken.
    static func check(runningMode: RunningMode, hasDelegate: Bool) throws {
        switch (runningMode, hasDelegate) {
        case (.liveStream, false):
            throw VisionTaskError.resultHandler(
                "The vision task is in live stream mode. An object must be set as the delegate of the task in its "
                    + "options to ensure asynchronous delivery of results.")
        case (.image, true), (.video, true):
            throw VisionTaskError.resultHandler(
                "The vision task is in image or video mode. The delegate must not be set in the task's options.")
        default: return
        }
    }
}
