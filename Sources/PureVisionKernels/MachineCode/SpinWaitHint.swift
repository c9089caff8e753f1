/// The processor's spin-wait hint, for loops that poll memory another thread will change.
///
/// On x86-64 Linux it runs a generated `pause` (Swift has no intrinsic for it). A polling loop without it keeps the
/// core's pipeline full of speculative loads of the polled line, and when the two threads of a pool share one
/// physical core (as a cloud VM's two vCPUs often do) it takes issue slots from the thread doing the work: on this
/// machine a pool worker polling without the hint slowed the caller's kernels down measurably. Elsewhere, or when
/// code cannot be mapped, ``pause()`` does nothing.
enum SpinWaitHint {
    /// `pause` a few times, then `ret`; nil where generated code does not run.
    private static let code: ExecutableCode? = {
        #if arch(x86_64) && os(Linux)
            var assembler = X86Assembler()
            for _ in 0..<pausesPerCall { assembler.pause() }
            assembler.ret()
            guard let bytes = try? assembler.finish() else { return nil }
            return try? ExecutableCode(bytes)
        #else
            return nil
        #endif
    }()

    /// `pause` instructions per ``pause()`` call: enough to make the call's own cost negligible, few enough
    /// (tens of nanoseconds each) that a polling thread still notices a change within about a microsecond.
    static let pausesPerCall = 4

    /// Executes the spin-wait hint (see the type's documentation).
    @inline(__always)
    static func pause() {
        code?.entry(0, 0, 0, 0, 0, 0)
    }
}
