/// An 8-bit kernel whose run is cut into tasks, each working in the scratch slot of the thread that runs it: the
/// quantized convolution and depthwise convolution.
package protocol ScratchSlotTaskKernel: AnyObject {
    /// Threads the scratch has a slot for (the `threadCount` the kernel was made for).
    var slotCount: Int { get }
    /// Tasks a run is cut into: several per thread, so that a thread that is slow to wake or descheduled leaves its
    /// share to the others instead of holding up the operator.
    var taskCount: Int { get }
    /// Task `task` of a run, in scratch slot `thread` of `scratch`.
    func runTask(
        task: Int, thread: Int, _ input: UnsafePointer<Int8>, _ output: UnsafeMutablePointer<Int8>,
        _ scratch: UnsafeMutablePointer<Int16>
    )
}

extension ScratchSlotTaskKernel {
    /// Runs the kernel: `input` [N, H, W, Cin] int8, `output` [N, OH, OW, Cout] int8, `scratch` at least the
    /// kernel's `scratchBytes` bytes (2-byte aligned). Tasks `0 ..< taskCount` go over `pool`'s threads, at most
    /// `slotCount` of them, one scratch slot each.
    package func run(
        input: UnsafePointer<Int8>, output: UnsafeMutablePointer<Int8>, scratch: UnsafeMutableRawPointer,
        pool: ThreadPool
    ) {
        let body = ScratchSlotTasks(
            kernel: .passUnretained(self), input: input, output: output,
            scratch: scratch.assumingMemoryBound(to: Int16.self))
        withExtendedLifetime(self) { pool.fitting(slots: slotCount).parallelTasks(taskCount, body) }
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
