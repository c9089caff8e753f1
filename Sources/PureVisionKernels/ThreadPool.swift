import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Splits a kernel's independent work items over a fixed number of threads.
///
/// A pool of `threadCount` threads is the calling thread plus `threadCount - 1` worker threads that it starts once,
/// in `init`, and that wait parked between calls; `deinit` stops and joins them. With `threadCount == 1` every call
/// runs inline on the caller's thread, with no synchronisation at all. A call with a ``ParallelTaskBody`` or
/// ``ParallelRangeBody`` allocates nothing.
///
/// A pool is safe to share between kernels and between threads. Calls must not be nested; a call made while
/// another thread's call is using the workers runs all its tasks inline instead of waiting.
///
/// Workers poll for the next call for a short while before they park: 50 µs on Linux, 20 µs on macOS and 10 µs on
/// iOS, tvOS and visionOS, where a polling core is a core that cannot sleep (battery). On Apple platforms the workers start with
/// the creating thread's quality of service and take each calling thread's QoS when they join its call, so work
/// started from a user-interactive thread is not run at a lower class; the atomics they share are padded to 128
/// bytes there (Apple silicon's cache line), to 64 elsewhere.
public final class ThreadPool: Sendable {
    /// How many threads work on one `parallelFor` call (≥ 1).
    public let threadCount: Int
    @usableFromInline let team: WorkerTeam?

    /// Creates a pool and starts its `threadCount - 1` worker threads. `threadCount` is clamped to at least 1.
    public init(threadCount: Int) {
        self.threadCount = max(1, threadCount)
        team = self.threadCount > 1 ? WorkerTeam(workerCount: self.threadCount - 1) : nil
    }

    deinit { team?.stop() }

    /// Chunks per thread a range is cut into: threads take chunks one at a time, so when one thread is slow
    /// (descheduled on a busy machine) the others take its share instead of waiting for it.
    public static let chunksPerThread = 4

    /// A pool that runs everything inline on the calling thread.
    public static let serial = ThreadPool(threadCount: 1)

    /// Runs `body.run(task:)` for every `task` in `0..<taskCount` and returns when all have finished; allocates
    /// nothing.
    ///
    /// Tasks may run concurrently and in any order; each must write only memory no other task touches. Each thread
    /// starts on its own share, the t-th of `threadCount` near-equal contiguous parts of the tasks, in order, so that
    /// calls of the same size give each thread the same tasks and an operator finds the data the previous one left in
    /// that thread's cache. A thread whose share is done takes the tasks left in the others' shares, one at a time
    /// from their far end, so a call whose workers are slow to wake, or are descheduled, runs on the threads that are
    /// there instead of waiting for them.
    ///
    /// Inlinable, like the other generic entry points, so that the tasks' code is specialized for `Body` in the
    /// caller's module: a generic body type from another module would otherwise run unspecialized.
    @inlinable
    public func parallelFor<Body: ParallelTaskBody>(_ taskCount: Int, _ body: Body) {
        parallelTasks(taskCount, AnyThread(body: body))
    }

    /// Runs `body.run(task:thread:)` for every `task` in `0..<taskCount` and returns when all have finished;
    /// allocates nothing.
    ///
    /// Like ``parallelFor(_:_:)-(_,ParallelTaskBody)`` (each thread starts on its own contiguous share, and a thread
    /// that is done takes over what is left of the others'), and each task also learns which of the pool's
    /// threads runs it: `thread` is in `0..<threadCount` (the calling thread is 0) and no two tasks with the same
    /// `thread` run at once, so per-thread scratch indexed by it needs no locking.
    @inlinable
    public func parallelTasks<Body: ParallelThreadTaskBody>(_ taskCount: Int, _ body: Body) {
        if taskCount <= 0 { return }
        guard taskCount > 1, let team, team.tryBegin() else {
            for task in 0..<taskCount { body.run(task: task, thread: 0) }
            return
        }
        withUnsafePointer(to: body) { pointer in
            // The thunk captures nothing, so it needs no context; written here, it is specialized for `Body` along
            // with this function, and the workers run the same specialized code as the caller.
            team.run(
                taskCount, at: UnsafeRawPointer(pointer),
                invoke: { context, task, thread in
                    context.assumingMemoryBound(to: Body.self).pointee.run(task: task, thread: thread)
                },
                { task in body.run(task: task, thread: 0) })
        }
    }

    /// How many tasks to cut work of `units` independent units into for `threads` threads: 1 for one thread, else
    /// ``chunksPerThread`` per thread but no more than there are units (and at least 1).
    public static func chunkCount(_ units: Int, threads: Int) -> Int {
        threads <= 1 ? 1 : max(1, min(threads * chunksPerThread, units))
    }

    /// This pool, or ``serial`` when it has more threads than `slots`: for kernels whose scratch has one slot per
    /// thread they were prepared for, indexed by ``ParallelThreadTaskBody``'s `thread`.
    public func fitting(slots: Int) -> ThreadPool { threadCount <= slots ? self : .serial }

    /// Splits `0..<count` into contiguous chunks of at least `minimumChunk` items, at most
    /// ``chunksPerThread`` per thread, and calls `body.run(range:)` once per chunk, concurrently; allocates nothing.
    @inlinable
    public func parallelRanges<Body: ParallelRangeBody>(_ count: Int, minimumChunk: Int = 1, _ body: Body) {
        parallelRanges(
            count, fixedChunks: Self.chunkCount(count / max(1, minimumChunk), threads: threadCount), body)
    }

    /// Splits `0..<count` into exactly `chunks` near-equal contiguous ranges (fewer only when `count` is smaller) and
    /// calls `body.run(range:)` once per range, concurrently; allocates nothing. The cut depends on `count` and
    /// `chunks` alone, never on the thread count: for kernels whose arithmetic depends on where a range starts or
    /// ends (a BLAS call's own blocking), so that any number of threads gives the same bits as one.
    @inlinable
    public func parallelRanges<Body: ParallelRangeBody>(_ count: Int, fixedChunks chunks: Int, _ body: Body) {
        if count <= 0 { return }
        let chunks = max(1, min(chunks, count))
        if chunks == 1 {
            body.run(range: 0..<count)
            return
        }
        parallelFor(chunks, RangeSplit(count: count, chunks: chunks, body: body))
    }

    /// Runs `body(task)` for every `task` in `0..<taskCount` like ``parallelFor(_:_:)-(_,ParallelTaskBody)``.
    ///
    /// Handing a closure to other threads costs one heap allocation per call that uses them; kernels on the
    /// interpreter's run path use the ``ParallelTaskBody`` form instead.
    public func parallelFor(_ taskCount: Int, _ body: (Int) -> Void) {
        if taskCount <= 0 { return }
        guard taskCount > 1, team != nil else {
            for task in 0..<taskCount { body(task) }
            return
        }
        withoutActuallyEscaping(body) { body in parallelFor(taskCount, ClosureBody(body: body)) }
    }

    /// Splits `0..<count` like ``parallelRanges(_:minimumChunk:_:)-(_,_,ParallelRangeBody)`` and calls
    /// `body(range)` once per chunk, concurrently. Costs one heap allocation per call that uses other threads.
    public func parallelRanges(_ count: Int, minimumChunk: Int = 1, _ body: (Range<Int>) -> Void) {
        if count <= 0 { return }
        let chunks = max(1, min(threadCount, count / max(1, minimumChunk)))
        if chunks == 1 {
            body(0..<count)
            return
        }
        parallelFor(chunks) { chunk in
            body(Self.boundary(count, part: chunk, of: chunks)..<Self.boundary(count, part: chunk + 1, of: chunks))
        }
    }

    /// The most tasks one call may have: 2³² − 1 (each thread's share packs two task indices into 64 bits), or
    /// `Integer.max` when that is smaller (a 32-bit `Int`).
    package static func maximumTaskCount<Integer: FixedWidthInteger>(as: Integer.Type) -> Integer {
        Integer.bitWidth - (Integer.isSigned ? 1 : 0) >= 32 ? Integer(truncatingIfNeeded: UInt32.max) : Integer.max
    }

    /// `count · part / parts` (0 ≤ part ≤ parts, count ≥ 0), the start of part `part` of `parts` near-equal
    /// contiguous parts of `0..<count`, without overflowing `Integer`: with 64-bit integers the product cannot
    /// overflow (count < 2³², part ≤ parts, which are a few per thread), narrower ones use a double-width product.
    @inlinable @inline(__always)
    package static func boundary<Integer: FixedWidthInteger>(_ count: Integer, part: Integer, of parts: Integer)
        -> Integer
    {
        if Integer.bitWidth >= 64 { return count * part / parts }
        return parts.dividingFullWidth(count.multipliedFullWidth(by: part)).quotient
    }
}

/// Work that ``ThreadPool/parallelFor(_:_:)-(_,ParallelTaskBody)`` spreads over threads: a value holding
/// everything the tasks read (pointers, sizes), whose `run(task:)` does one task. The pool reads the value in place,
/// so passing it allocates nothing.
public protocol ParallelTaskBody {
    /// Does task `task`; may run on any of the pool's threads, concurrently with other tasks.
    func run(task: Int)
}

/// Work that ``ThreadPool/parallelTasks(_:_:)`` spreads over threads: like ``ParallelTaskBody``, with the index of
/// the pool thread running each task.
public protocol ParallelThreadTaskBody {
    /// Does task `task` on pool thread `thread` (`0..<threadCount`, 0 being the calling thread); tasks with the
    /// same `thread` never overlap.
    func run(task: Int, thread: Int)
}

/// Work that ``ThreadPool/parallelRanges(_:minimumChunk:_:)-(_,_,ParallelRangeBody)`` spreads over threads, one
/// contiguous range of items per call.
public protocol ParallelRangeBody {
    /// Processes the items in `range`; may run on any of the pool's threads, concurrently with other ranges.
    func run(range: Range<Int>)
}

/// Chunk `task` of `chunks` near-equal contiguous parts of `0..<count`.
@usableFromInline
struct RangeSplit<Body: ParallelRangeBody>: ParallelTaskBody {
    @usableFromInline let count: Int
    @usableFromInline let chunks: Int
    @usableFromInline let body: Body

    @inlinable
    init(count: Int, chunks: Int, body: Body) {
        self.count = count
        self.chunks = chunks
        self.body = body
    }

    @inlinable
    func run(task: Int) {
        body.run(
            range: ThreadPool.boundary(
                count, part: task, of: chunks)..<ThreadPool.boundary(
                    count, part: task + 1, of: chunks))
    }
}

/// A task body that does not need to know its thread.
@usableFromInline
struct AnyThread<Body: ParallelTaskBody>: ParallelThreadTaskBody {
    @usableFromInline let body: Body

    @inlinable
    init(body: Body) { self.body = body }

    @inlinable
    func run(task: Int, thread: Int) { body.run(task: task) }
}

/// A closure made escaping by `withoutActuallyEscaping`, as a task body.
private struct ClosureBody: ParallelTaskBody {
    let body: (Int) -> Void

    func run(task: Int) { body(task) }
}

/// The worker threads of one pool and the state they share with the calling thread.
///
/// A call publishes its body and every thread's share of the tasks (`ranges`) under `mutex` and then bumps
/// `generation`; workers that poll `generation` see it without a wake-up, join the call under `mutex`, and take tasks
/// from the front of their own share, then from the back of the others', each with one compare-and-exchange, so
/// neither polling nor taking a task touches the mutex. Only parking (after ``spinNanoseconds`` of polling) and
/// joining do.
///
/// Invariant: a call does not return before every worker that joined it has left it (`joined == 0`), so when the next
/// call resets `ranges` no worker still takes tasks of the previous one.
@usableFromInline
final class WorkerTeam: @unchecked Sendable {
    /// Held by the one caller that owns the workers for the duration of a call.
    private let callLock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Guards the fields of the current call (`invoke`, `context`, `callGeneration`, the `ranges` it resets) and parking.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Broadcast when `generation` changes while workers are parked, or on `stop()`.
    private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Signalled by a worker leaving a call while the caller waits for it.
    private let done = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var threads: [pthread_t] = []

    // The atomics sit a cache line or more apart in groups, so that polling one group does not keep pulling in the
    // line another thread is writing: what workers poll between calls, what the caller polls at the end of a call,
    // and each thread's share of the tasks (`ranges`, one line each).

    /// The generation of the latest published call; workers poll it.
    private let generation = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    /// Workers waiting on `wake` (not polling), which a new call must wake.
    private let parkedWorkers = Atomic<Int>(0)
    private let padding1 = CacheLinePadding()
    /// Tasks of the current call not finished yet.
    private let unfinished = Atomic<Int>(0)
    /// Workers that joined the current call and have not left it.
    private let joined = Atomic<Int>(0)
    /// Whether the caller waits on `done`, which a worker leaving the call must signal.
    private let callerWaiting = Atomic<Bool>(false)
    private let padding2 = CacheLinePadding()
    /// Thread `t`'s share of the current call's tasks, for `t` in `0..<participants`, each on its own cache line.
    private let ranges: UnsafeMutablePointer<TaskRange>
    /// The calling thread plus the workers that started.
    private var participants: Int { threads.count + 1 }

    /// Runs one task of the current call's body, which `context` points to, on the worker thread numbered as given;
    /// nil when no call is open. Guarded by `mutex`.
    private var invoke: ((UnsafeRawPointer, Int, Int) -> Void)?
    private var context: UnsafeRawPointer?
    /// The generation the current (or last) call publishes. Guarded by `mutex`.
    private var callGeneration = 0
    #if canImport(Darwin)
        /// The calling thread's quality of service for the current call, which joining workers take. Guarded by
        /// `mutex`.
        private var callQoS = qos_class_self()
    #endif

    init(workerCount: Int) {
        ranges = UnsafeMutablePointer<TaskRange>.allocate(capacity: workerCount + 1)
        for slot in 0...workerCount { (ranges + slot).initialize(to: TaskRange()) }
        pthread_mutex_init(callLock, nil)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(wake, nil)
        pthread_cond_init(done, nil)
        for _ in 0..<workerCount {
            let start = Unmanaged.passRetained(WorkerStart(team: self, thread: threads.count + 1)).toOpaque()
            #if canImport(Darwin)
                // Workers start at the creating thread's quality of service (Apple schedules by it).
                var attributes = pthread_attr_t()
                pthread_attr_init(&attributes)
                pthread_attr_set_qos_class_np(&attributes, qos_class_self(), 0)
                var thread: pthread_t?
                let status = pthread_create(&thread, &attributes, workerEntry, start)
                pthread_attr_destroy(&attributes)
                if status == 0, let thread { threads.append(thread) }
            #else
                var thread = pthread_t()
                let status = pthread_create(&thread, nil, workerEntry, start)
                if status == 0 { threads.append(thread) }
            #endif
            // A team with fewer workers than asked for still runs every task.
            if status != 0 {
                Unmanaged<WorkerStart>.fromOpaque(start).release()
                break
            }
        }
    }

    deinit {
        ranges.deinitialize(count: threads.count + 1)
        ranges.deallocate()
        pthread_cond_destroy(done)
        pthread_cond_destroy(wake)
        pthread_mutex_destroy(mutex)
        pthread_mutex_destroy(callLock)
        done.deallocate()
        wake.deallocate()
        mutex.deallocate()
        callLock.deallocate()
    }

    /// Claims the workers for one call; false when another thread's call holds them (or none started).
    @usableFromInline
    func tryBegin() -> Bool {
        if threads.isEmpty { return false }
        return pthread_mutex_trylock(callLock) == 0
    }

    /// Runs one call claimed by `tryBegin()`: publishes the body at `context` and its `invoke` thunk to the workers,
    /// takes tasks itself with `runTask` until none is left, waits until every task has finished and every worker
    /// that joined has left, and releases the workers.
    @usableFromInline
    func run(
        _ count: Int, at context: UnsafeRawPointer, invoke: @escaping (UnsafeRawPointer, Int, Int) -> Void,
        _ runTask: (Int) -> Void
    ) {
        precondition(count <= ThreadPool.maximumTaskCount(as: Int.self), "ThreadPool: at most 2^32 - 1 tasks per call")
        pthread_mutex_lock(mutex)
        self.invoke = invoke
        self.context = context
        // Thread t's share is the t-th of `participants` near-equal contiguous parts: the same tasks go to the same
        // thread in every call of the same size, so data one operator leaves in a thread's cache is read there by
        // the next.
        for thread in 0..<participants {
            ranges[thread].reset(
                ThreadPool.boundary(
                    count, part: thread, of: participants)..<ThreadPool.boundary(
                        count, part: thread + 1, of: participants))
        }
        unfinished.store(count, ordering: .relaxed)
        #if canImport(Darwin)
            callQoS = qos_class_self()
        #endif
        callGeneration &+= 1
        let published = callGeneration
        pthread_mutex_unlock(mutex)
        // Bumped after the unlock, so that a polling worker that sees it finds the mutex free.
        generation.store(published, ordering: .sequentiallyConsistent)
        if parkedWorkers.load(ordering: .sequentiallyConsistent) > 0 {
            pthread_mutex_lock(mutex)
            pthread_cond_broadcast(wake)
            pthread_mutex_unlock(mutex)
        }
        drain(thread: 0, runTask)
        poll { $0.unfinished.load(ordering: .acquiring) == 0 && $0.joined.load(ordering: .acquiring) == 0 }
        pthread_mutex_lock(mutex)
        // A worker may still join between the poll and the lock; it finds no task and leaves at once.
        callerWaiting.store(true, ordering: .sequentiallyConsistent)
        while unfinished.load(ordering: .sequentiallyConsistent) != 0
            || joined.load(ordering: .sequentiallyConsistent) != 0
        {
            pthread_cond_wait(done, mutex)
        }
        callerWaiting.store(false, ordering: .relaxed)
        self.invoke = nil
        self.context = nil
        pthread_mutex_unlock(mutex)
        pthread_mutex_unlock(callLock)
    }

    /// Polls `condition` for up to ``spinNanoseconds``, without locking; true when it held. The short gaps between
    /// the calls of one model run then cost no futex wake-up.
    @discardableResult
    private func poll(_ condition: (WorkerTeam) -> Bool) -> Bool {
        let start = monotonicNanoseconds()
        while true {
            for _ in 0..<16 {
                if condition(self) { return true }
                SpinWaitHint.pause()
            }
            if monotonicNanoseconds() &- start > Self.spinNanoseconds { return false }
        }
    }

    /// How long a thread polls before it parks: on Linux about the gap between two operators of a model run; on
    /// Apple platforms shorter, since a polling core is a core that cannot sleep (battery), shortest on phones and
    /// other battery-powered devices.
    #if os(iOS) || os(tvOS) || os(visionOS) || os(watchOS)
        private static let spinNanoseconds: UInt64 = 10_000
    #elseif canImport(Darwin)
        private static let spinNanoseconds: UInt64 = 20_000
    #else
        private static let spinNanoseconds: UInt64 = 50_000
    #endif

    /// Runs the current call's tasks from the front of `thread`'s share, then from the back of the other threads'
    /// shares, until none is left.
    private func drain(thread: Int, _ runTask: (Int) -> Void) {
        while let task = ranges[thread].takeFront() {
            runTask(task)
            unfinished.subtract(1, ordering: .releasing)
        }
        let count = participants
        for offset in 1..<count {
            let victim = (thread + offset) % count
            while let task = ranges[victim].takeBack() {
                runTask(task)
                unfinished.subtract(1, ordering: .releasing)
            }
        }
    }

    /// The loop of a worker thread, until `stop()`.
    /// `thread` is the worker's number in the pool (1 …; the calling thread is 0).
    fileprivate func work(thread: Int) {
        var seen = 0
        #if canImport(Darwin)
            var ownQoS = qos_class_self()
        #endif
        while true {
            let polled = poll {
                $0.generation.load(ordering: .acquiring) != seen || $0.stopping.load(ordering: .relaxed)
            }
            pthread_mutex_lock(mutex)
            if !polled {
                parkedWorkers.add(1, ordering: .sequentiallyConsistent)
                while generation.load(ordering: .sequentiallyConsistent) == seen
                    && !stopping.load(ordering: .sequentiallyConsistent)
                {
                    pthread_cond_wait(wake, mutex)
                }
                parkedWorkers.subtract(1, ordering: .relaxed)
            }
            if stopping.load(ordering: .relaxed) {
                pthread_mutex_unlock(mutex)
                return
            }
            // The call seen may already be over (then nothing is open) or followed by the next one (then join that).
            seen = callGeneration
            guard let invoke, let context else {
                pthread_mutex_unlock(mutex)
                continue
            }
            joined.add(1, ordering: .sequentiallyConsistent)
            #if canImport(Darwin)
                let wantedQoS = callQoS
            #endif
            pthread_mutex_unlock(mutex)
            #if canImport(Darwin)
                // Only a change costs a system call; calls from the same thread keep the class.
                if wantedQoS != ownQoS, pthread_set_qos_class_self_np(wantedQoS, 0) == 0 { ownQoS = wantedQoS }
            #endif
            drain(thread: thread) { task in invoke(context, task, thread) }
            joined.subtract(1, ordering: .sequentiallyConsistent)
            if callerWaiting.load(ordering: .sequentiallyConsistent) {
                pthread_mutex_lock(mutex)
                pthread_cond_signal(done)
                pthread_mutex_unlock(mutex)
            }
        }
    }

    /// Wakes every worker to exit and waits for them.
    func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        // Polling workers see `stopping` themselves; parked ones need the broadcast.
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(wake)
        pthread_mutex_unlock(mutex)
        for thread in threads { pthread_join(thread, nil) }
    }
}

/// One thread's share of a call's tasks, `front ..< back`, packed into one word (front in the low 32 bits) so that the
/// owner taking from the front and another thread taking from the back agree with one compare-and-exchange.
private struct TaskRange: ~Copyable {
    private let bounds = Atomic<UInt64>(0)
    private let padding = CacheLinePadding()

    /// Makes `tasks` the share; only while no other thread takes from it.
    func reset(_ tasks: Range<Int>) {
        bounds.store(UInt64(tasks.upperBound) << 32 | UInt64(tasks.lowerBound), ordering: .relaxed)
    }

    /// Takes the first task left, or nil when none is.
    func takeFront() -> Int? {
        var current = bounds.load(ordering: .relaxed)
        while true {
            let front = current & 0xFFFF_FFFF
            if front >= current >> 32 { return nil }
            let (taken, found) = bounds.compareExchange(
                expected: current, desired: current + 1, ordering: .relaxed)
            if taken { return Int(front) }
            current = found
        }
    }

    /// Takes the last task left, or nil when none is.
    func takeBack() -> Int? {
        var current = bounds.load(ordering: .relaxed)
        while true {
            let back = current >> 32
            if current & 0xFFFF_FFFF >= back { return nil }
            let (taken, found) = bounds.compareExchange(
                expected: current, desired: current - (1 << 32), ordering: .relaxed)
            if taken { return Int(back - 1) }
            current = found
        }
    }
}

/// A cache line of nothing: stored between fields that different threads write, so that they sit on different
/// cache lines. 128 bytes on Apple platforms (Apple silicon's line), 64 elsewhere.
private struct CacheLinePadding {
    #if canImport(Darwin)
        private let words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        private let moreWords: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (0, 0, 0, 0, 0, 0, 0, 0)
    #else
        private let words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    #endif
}

/// What a new worker thread receives: its team, retained for the thread's lifetime.
private final class WorkerStart {
    let team: WorkerTeam
    /// The worker's thread number, 1 … workerCount.
    let thread: Int
    init(team: WorkerTeam, thread: Int) {
        self.team = team
        self.thread = thread
    }
}

#if canImport(Darwin)
    private func workerEntry(_ argument: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        Unmanaged<WorkerStart>.fromOpaque(argument).takeRetainedValue().run()
        return nil
    }
#else
    private func workerEntry(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        guard let argument else { return nil }
        Unmanaged<WorkerStart>.fromOpaque(argument).takeRetainedValue().run()
        return nil
    }
#endif

extension WorkerStart {
    fileprivate func run() { team.work(thread: thread) }
}

/// A monotonic clock reading in nanoseconds.
private func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
}
