import Foundation

/// A count the task's processing thread increments and any thread may read: how many times a landmarker's
/// detector has run (it is skipped while enough regions are tracked).
final class RunCounter: @unchecked Sendable {
    // Invariant: `count` is read and written only under `lock`.
    private var count = 0
    private let lock = NSLock()

    /// Counts one run.
    func increment() { lock.withLock { count += 1 } }

    /// The runs counted so far.
    var value: Int { lock.withLock { count } }
}
