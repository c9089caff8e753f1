import Dispatch

/// Splits a kernel's independent work items over a fixed number of threads.
///
/// With `threadCount == 1` every call runs inline on the caller's thread, with no synchronisation at all.
/// A pool is safe to share between kernels of one interpreter; calls must not be nested.
public final class ThreadPool: Sendable {
    /// How many threads work on one `parallelFor` call (≥ 1).
    public let threadCount: Int

    /// Creates a pool. `threadCount` is clamped to at least 1.
    public init(threadCount: Int) {
        self.threadCount = max(1, threadCount)
    }

    /// A pool that runs everything inline on the calling thread.
    public static let serial = ThreadPool(threadCount: 1)

    /// Runs `body(task)` for every `task` in `0..<taskCount` and returns when all have finished.
    ///
    /// Tasks may run concurrently and in any order; each must write only memory no other task touches.
    public func parallelFor(_ taskCount: Int, _ body: (Int) -> Void) {
        if taskCount <= 0 { return }
        if threadCount == 1 || taskCount == 1 {
            for task in 0..<taskCount { body(task) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let box = UncheckedSendableBox(body)
            DispatchQueue.concurrentPerform(iterations: taskCount) { task in box.value(task) }
        }
    }

    /// Splits `0..<count` into at most `threadCount` contiguous chunks of at least `minimumChunk` items and calls
    /// `body(range)` once per chunk, concurrently.
    public func parallelRanges(_ count: Int, minimumChunk: Int = 1, _ body: (Range<Int>) -> Void) {
        if count <= 0 { return }
        let chunks = max(1, min(threadCount, count / max(1, minimumChunk)))
        if chunks == 1 {
            body(0..<count)
            return
        }
        parallelFor(chunks) { chunk in
            let start = count * chunk / chunks
            let end = count * (chunk + 1) / chunks
            body(start..<end)
        }
    }
}

/// Carries a non-Sendable closure across `concurrentPerform`, whose tasks the caller has made disjoint.
private struct UncheckedSendableBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
