import Dispatch
import PureVisionKernels
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct ThreadPoolTests {
    /// Adds 1 to `counts[task]` and records the thread that ran it; tasks touch disjoint slots.
    struct CountingTasks: ParallelTaskBody {
        let counts: UnsafeMutablePointer<Int>
        let threads: UnsafeMutablePointer<pthread_t>

        func run(task: Int) {
            counts[task] += 1
            threads[task] = pthread_self()
        }
    }

    /// Adds 1 to every slot of its range and records the range's first item and length.
    struct CountingRanges: ParallelRangeBody {
        let counts: UnsafeMutablePointer<Int>
        /// `starts[i]` is the length of the range that starts at `i`, 0 elsewhere.
        let starts: UnsafeMutablePointer<Int>

        func run(range: Range<Int>) {
            for item in range { counts[item] += 1 }
            if !range.isEmpty { starts[range.lowerBound] = range.count }
        }
    }

    /// Records each task's thread number and pthread; tasks touch disjoint slots.
    struct ThreadNumberedTasks: ParallelThreadTaskBody {
        let numbers: UnsafeMutablePointer<Int>
        let threads: UnsafeMutablePointer<pthread_t>

        func run(task: Int, thread: Int) {
            numbers[task] = thread
            threads[task] = pthread_self()
            // Some work, so that the workers take part.
            var x = 0
            for i in 0..<2000 { x &+= i &* task }
            if x == -1 { numbers[task] = -1 }
        }
    }

    /// `parallelTasks` runs every task once, numbers threads `0..<threadCount` with 0 the caller, and gives one
    /// number to one pthread only (so per-thread scratch indexed by it is never shared).
    @Test(arguments: [1, 2, 3, 16], [0, 1, 2, 7, 64, 513])
    func parallelTasksNumberThreadsConsistently(threads: Int, taskCount: Int) {
        let pool = ThreadPool(threadCount: threads)
        var numbers = [Int](repeating: -1, count: taskCount)
        var owners = [pthread_t](repeating: pthread_self(), count: taskCount)
        numbers.withUnsafeMutableBufferPointer { numbers in
            owners.withUnsafeMutableBufferPointer { owners in
                guard let n = numbers.baseAddress, let o = owners.baseAddress else { return }
                pool.parallelTasks(taskCount, ThreadNumberedTasks(numbers: n, threads: o))
            }
        }
        #expect(numbers.allSatisfy { (0..<threads).contains($0) })
        var ownerOfNumber: [Int: pthread_t] = [:]
        for (number, owner) in zip(numbers, owners) {
            if let known = ownerOfNumber[number] {
                #expect(pthread_equal(known, owner) != 0, "thread number \(number) used by two pthreads")
            } else {
                ownerOfNumber[number] = owner
            }
            if number == 0 { #expect(pthread_equal(owner, pthread_self()) != 0, "0 is the calling thread") }
        }
    }

    @Test(arguments: [1, 2, 3, 16], [0, 1, 2, 3, 5, 17, 64])
    func everyTaskRunsOnce(threads: Int, taskCount: Int) {
        let pool = ThreadPool(threadCount: threads)
        var counts = [Int](repeating: 0, count: taskCount)
        var owners = [pthread_t](repeating: pthread_self(), count: taskCount)
        counts.withUnsafeMutableBufferPointer { counts in
            owners.withUnsafeMutableBufferPointer { owners in
                guard let c = counts.baseAddress, let o = owners.baseAddress else { return }
                pool.parallelFor(taskCount, CountingTasks(counts: c, threads: o))
            }
        }
        #expect(counts.allSatisfy { $0 == 1 }, "\(counts)")

        var closureCounts = [Int](repeating: 0, count: taskCount)
        closureCounts.withUnsafeMutableBufferPointer { counts in
            pool.parallelFor(taskCount) { task in counts[task] += 1 }
        }
        #expect(closureCounts.allSatisfy { $0 == 1 }, "\(closureCounts)")
    }

    @Test(arguments: [1, 2, 3, 16], [(0, 1), (1, 1), (5, 1), (100, 1), (100, 30), (100, 100), (7, 3)])
    func rangesCoverEveryItemOnce(threads: Int, sizes: (count: Int, minimumChunk: Int)) {
        let pool = ThreadPool(threadCount: threads)
        var counts = [Int](repeating: 0, count: sizes.count)
        var starts = [Int](repeating: 0, count: sizes.count)
        counts.withUnsafeMutableBufferPointer { counts in
            starts.withUnsafeMutableBufferPointer { starts in
                guard let c = counts.baseAddress, let s = starts.baseAddress else { return }
                pool.parallelRanges(sizes.count, minimumChunk: sizes.minimumChunk, CountingRanges(counts: c, starts: s))
            }
        }
        #expect(counts.allSatisfy { $0 == 1 })
        let lengths = starts.filter { $0 > 0 }
        #expect(lengths.count <= (threads == 1 ? 1 : threads * ThreadPool.chunksPerThread))
        if lengths.count > 1 { #expect(lengths.allSatisfy { $0 >= sizes.minimumChunk }, "\(lengths)") }
        #expect(lengths.reduce(0, +) == sizes.count)
    }

    /// Records its thread, then waits until every task has started: with `threadCount` tasks, that can only end if
    /// each runs on its own thread at the same time. The wait gives up only after about a minute (a pool that runs
    /// the tasks one after another would otherwise hang); a loaded machine that is slow to wake a worker must not
    /// fail the test, so the deadline is no measure of speed.
    struct RendezvousTasks: ParallelTaskBody {
        let threads: UnsafeMutablePointer<pthread_t>
        let started: UnsafeMutablePointer<Int>
        let mutex: UnsafeMutablePointer<pthread_mutex_t>
        let taskCount: Int

        func run(task: Int) {
            threads[task] = pthread_self()
            pthread_mutex_lock(mutex)
            started.pointee += 1
            pthread_mutex_unlock(mutex)
            for _ in 0..<60_000 {
                pthread_mutex_lock(mutex)
                let all = started.pointee == taskCount
                pthread_mutex_unlock(mutex)
                if all { return }
                usleep(1_000)
            }
        }
    }

    @Test(.timeLimit(.minutes(5)), arguments: [2, 3, 4])
    func tasksRunOnTheWorkerThreads(threads: Int) {
        let pool = ThreadPool(threadCount: threads)
        let owners = UnsafeMutablePointer<pthread_t>.allocate(capacity: threads)
        let started = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        owners.initialize(repeating: pthread_self(), count: threads)
        started.initialize(to: 0)
        pthread_mutex_init(mutex, nil)
        defer {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
            started.deallocate()
            owners.deallocate()
        }
        pool.parallelFor(threads, RendezvousTasks(threads: owners, started: started, mutex: mutex, taskCount: threads))
        #expect(started.pointee == threads)
        // The caller takes the first task; every other task ran at the same time on a distinct worker.
        #expect(pthread_equal(owners[0], pthread_self()) != 0)
        for task in 1..<threads {
            #expect(pthread_equal(owners[task], pthread_self()) == 0, "task \(task) ran on the caller")
            for other in 1..<task { #expect(pthread_equal(owners[task], owners[other]) == 0) }
        }
    }

    @Test func concurrentCallersShareOnePool() {
        let pool = ThreadPool(threadCount: 3)
        let callers = 4
        let rounds = 200
        let taskCount = 9
        let results = UnsafeMutableBufferPointer<Int>.allocate(capacity: callers * taskCount)
        let owners = UnsafeMutableBufferPointer<pthread_t>.allocate(capacity: callers * taskCount)
        defer {
            results.deallocate()
            owners.deallocate()
        }
        results.initialize(repeating: 0)
        owners.initialize(repeating: pthread_self())
        let base = UncheckedPointers(results: results.baseAddress, owners: owners.baseAddress)
        DispatchQueue.concurrentPerform(iterations: callers) { caller in
            guard let results = base.results, let owners = base.owners else { return }
            for _ in 0..<rounds {
                pool.parallelFor(
                    taskCount,
                    CountingTasks(counts: results + caller * taskCount, threads: owners + caller * taskCount))
            }
        }
        #expect(results.allSatisfy { $0 == rounds })
    }

    /// Raw pointers handed to `concurrentPerform`'s tasks, which write disjoint parts of them.
    struct UncheckedPointers: @unchecked Sendable {
        let results: UnsafeMutablePointer<Int>?
        let owners: UnsafeMutablePointer<pthread_t>?
    }
    /// Adds 1 to `counts[call * stride + task]`: a task run for the wrong call, or twice, shows up in the counts.
    struct CallStampedTasks: ParallelThreadTaskBody {
        let counts: UnsafeMutablePointer<Int>
        let call: Int
        let stride: Int

        func run(task: Int, thread: Int) { counts[call * stride + task] += 1 }
    }

    /// Thousands of back-to-back calls of a few tiny tasks each, the pattern of a model run's small operators, with
    /// a pause past the workers' polling time now and then so that they also park and wake: every task of every
    /// call runs exactly once, for its own call (a worker still in one call must not take a task of the next; when
    /// one did, in a deliberately broken pool, the counts of later calls went wrong and a call waited forever).
    @Test(.timeLimit(.minutes(1)), arguments: [2, 3])
    func backToBackCallsRunEachTaskOnceForItsOwnCall(threads: Int) {
        let pool = ThreadPool(threadCount: threads)
        let calls = 50000
        let stride = 5
        var counts = [Int](repeating: 0, count: calls * stride)
        counts.withUnsafeMutableBufferPointer { counts in
            guard let base = counts.baseAddress else { return }
            for call in 0..<calls {
                pool.parallelTasks(1 + call % stride, CallStampedTasks(counts: base, call: call, stride: stride))
                if call % 5000 == 4999 { usleep(2000) }
            }
        }
        for call in 0..<calls {
            for task in 0..<stride {
                let expected = task < 1 + call % stride ? 1 : 0
                #expect(counts[call * stride + task] == expected, "call \(call) task \(task)")
            }
        }
    }
}
