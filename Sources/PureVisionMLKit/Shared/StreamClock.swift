import Dispatch

/// Timestamps for a native task's video mode, made for ML Kit's stream mode, whose frames carry none: the
/// milliseconds of the monotonic clock since the first frame, raised where needed so that they strictly increase.
///
/// With a fixed `frameInterval` (tests), frame `n` is at `n · frameInterval` ms instead, so that the native task can
/// be fed the same timestamps.
final class StreamClock {
    private let frameInterval: Int?
    private var start: UInt64?
    private var last: Int?

    /// A clock reading the monotonic clock, or stepping by `frameInterval` ms when it is given.
    init(frameInterval: Int? = nil) { self.frameInterval = frameInterval }

    /// The next frame's timestamp in milliseconds: 0 for the first frame, then strictly increasing.
    func next() -> Int {
        let now = DispatchTime.now().uptimeNanoseconds
        let elapsed: Int
        if let frameInterval {
            elapsed = last.map { $0 + frameInterval } ?? 0
        } else {
            let origin = start ?? now
            start = origin
            elapsed = Int((now - origin) / 1_000_000)
        }
        let timestamp = last.map { max(elapsed, $0 + 1) } ?? elapsed
        last = timestamp
        return timestamp
    }
}
