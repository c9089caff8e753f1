import Foundation
import PureVisionKernels

/// How much arithmetic the machine gives several threads at this moment, as a multiple of what it gives one: the
/// generated register-only FMA loop of `bench --peak`, timed on one thread and then on `threads` threads at once
/// (each its own loop), best of ``attempts`` each, so `threads · t₁ / tₙ`.
///
/// On dedicated cores that is close to the thread count. On a virtual machine it is not when the host has placed two
/// virtual CPUs on one physical core's hyper-threads, or has taken one away (steal time, which `/proc/stat` also
/// reports): the bench then cannot show what a second thread gains, whatever the code does. The bench probes before and
/// between the alternating rounds of each model or pipeline and reports the median, so a line timed in such a spell
/// says so.
struct CapacityProbe {
    let pool: ThreadPool
    let code: ExecutableCode

    /// Loop iterations per timing: about 0.3 ms at this machine's float peak.
    static let iterations = 200_000
    /// Timings per thread count; the fastest counts.
    static let attempts = 3

    /// A probe for `threads` threads; nil for one thread, or where generated code cannot run.
    init?(threads: Int) throws {
        guard threads > 1, HostCPU.supportsGeneratedAVX2 else { return nil }
        pool = ThreadPool(threadCount: threads)
        code = try PeakRun.floatLoop().code
    }

    /// The capacity now: `threads · t₁ / tₙ`.
    func measure() -> Double {
        let spin = Spin(code: code)
        let one = Self.fastest { spin.run(task: 0) }
        let all = Self.fastest { pool.parallelFor(pool.threadCount, spin) }
        return Double(pool.threadCount) * one / max(all, 1)
    }

    /// The time one call of the pool takes with nothing to do (every thread joins a task of an empty loop, and the
    /// caller waits for them): what each parallel operator pays on top of its work. In µs, best of ``attempts``
    /// batches of ``emptyCalls``. It grows when the virtual CPUs sit far apart (on other core complexes, caches
    /// not shared) or one of them is descheduled.
    func joinMicroseconds() -> Double {
        let empty = Empty()
        let batch = Self.fastest {
            for _ in 0..<Self.emptyCalls { pool.parallelFor(pool.threadCount, empty) }
        }
        return batch / Double(Self.emptyCalls) / 1000
    }

    /// Empty calls per timing of ``joinMicroseconds()``.
    static let emptyCalls = 200

    /// A task that does nothing.
    struct Empty: ParallelTaskBody {
        func run(task: Int) {}
    }

    /// The fastest of ``attempts`` timings of `body`, in ns.
    private static func fastest(_ body: () -> Void) -> Double {
        var best = UInt64.max
        for _ in 0..<attempts {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            best = min(best, DispatchTime.now().uptimeNanoseconds - start)
        }
        return Double(best)
    }

    /// One thread's loop, as a pool task.
    struct Spin: ParallelTaskBody {
        let code: ExecutableCode
        func run(task: Int) { code.entry(CapacityProbe.iterations, 0, 0, 0, 0, 0) }
    }
}
