/// An 8-bit kernel whose run is cut into tasks, each working in the scratch slot of the thread that runs it.
protocol ScratchSlotTaskKernel: AnyObject {
    /// Task `task` of a run, in scratch slot `thread` of `scratch`.
    func runTask(
        task: Int, thread: Int, _ input: UnsafePointer<Int8>, _ output: UnsafeMutablePointer<Int8>,
        _ scratch: UnsafeMutablePointer<Int16>
    )
}

extension ScratchSlotTaskKernel {
    /// Runs tasks `0 ..< taskCount` over `pool`'s threads (at most `slots` of them, one scratch slot each).
    func runTasks(
        _ taskCount: Int, slots: Int, input: UnsafePointer<Int8>, output: UnsafeMutablePointer<Int8>,
        scratch: UnsafeMutableRawPointer, pool: ThreadPool
    ) {
        let body = ScratchSlotTasks(
            kernel: .passUnretained(self), input: input, output: output,
            scratch: scratch.assumingMemoryBound(to: Int16.self))
        withExtendedLifetime(self) { pool.fitting(slots: slots).parallelTasks(taskCount, body) }
    }
}

/// The tasks of one run of a ``ScratchSlotTaskKernel``.
struct ScratchSlotTasks<Kernel: ScratchSlotTaskKernel>: ParallelThreadTaskBody {
    /// Unmanaged: the caller keeps the kernel alive through the run, and retaining it in every task from every
    /// thread made its reference count a cache line the threads fought over.
    let kernel: Unmanaged<Kernel>
    let input: UnsafePointer<Int8>
    let output: UnsafeMutablePointer<Int8>
    let scratch: UnsafeMutablePointer<Int16>

    func run(task: Int, thread: Int) {
        kernel._withUnsafeGuaranteedRef { $0.runTask(task: task, thread: thread, input, output, scratch) }
    }
}
