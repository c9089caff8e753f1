import PureVisionKernels

/// How much arithmetic the machine gives several threads at this moment, as a multiple of what it gives one (the
/// generated register-only FMA loop of `bench --peak`, timed on one thread and then on `threads` threads at once, each
/// its own loop: `threads · t₁ / tₙ`), and what an empty call of the thread pool costs.
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
    /// Timings of each figure; the fastest counts.
    static let attempts = 3

    /// A probe for `threads` threads; nil for one thread, or where generated code cannot run.
    init?(threads: Int) throws {
        guard threads > 1, HostCPU.supportsGeneratedAVX2 else { return nil }
        pool = ThreadPool(threadCount: threads)
        code = try PeakRun.floatLoop().code
    }

    /// What one probe found.
    struct Reading {
        /// `threads · t₁ / tₙ` for the FMA loop.
        var capacity: Double
        /// The time one call of the pool takes with nothing to do (every thread joins a task of an empty loop, and
        /// the caller waits for them), in µs: what each parallel operator pays on top of its work. It grows when the
        /// virtual CPUs sit far apart (on other core complexes, caches not shared) or one of them is descheduled.
        var joinMicroseconds: Double

        /// Each figure's median over `readings` (nil when there are none).
        static func median(of readings: [Reading]) -> Reading? {
            guard !readings.isEmpty else { return nil }
            func middle(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
            return Reading(
                capacity: middle(readings.map(\.capacity)),
                joinMicroseconds: middle(readings.map(\.joinMicroseconds)))
        }
    }

    /// Probes the machine now: the FMA loop on one thread and on all, best of ``attempts`` each, then ``emptyCalls``
    /// empty calls of the pool, best of ``attempts`` batches.
    func read() -> Reading {
        let spin = PeakRun.Spin(code: code, iterations: Self.iterations)
        let one = PeakRun.fastest(of: Self.attempts) { spin.run(task: 0) }
        let all = PeakRun.fastest(of: Self.attempts) { pool.parallelFor(pool.threadCount, spin) }
        let empty = Empty()
        let batch = PeakRun.fastest(of: Self.attempts) {
            for _ in 0..<Self.emptyCalls { pool.parallelFor(pool.threadCount, empty) }
        }
        return Reading(
            capacity: Double(pool.threadCount) * one / max(all, 1),
            joinMicroseconds: batch / Double(Self.emptyCalls) / 1000)
    }

    /// Empty calls of the pool per timing.
    static let emptyCalls = 200

    /// A task that does nothing.
    struct Empty: ParallelTaskBody {
        func run(task: Int) {}
    }
}
