// BLAS must not start threads of its own: the kernels' ThreadPool already splits the work over the cores the
// caller asked for, and a second pool would fight it. OpenBLAS is opened single-threaded (OpenBLASLibrary);
// Accelerate is told per call, here.
#if canImport(Accelerate)

    import Accelerate

    /// Runs `body` (one BLAS call) with Accelerate's BLAS single-threaded on the calling thread, and restores the
    /// thread's previous model afterwards, so an app's own BLAS calls on the same thread are not affected.
    ///
    /// Accelerate keeps its threading model per thread (`BLASSetThreading`, macOS 15 / iOS 18 / tvOS 18 /
    /// visionOS 2, the package's floor), so it is set on whichever pool thread makes the call. Not compiled on Linux:
    /// unverified on Apple hardware.
    @inline(__always)
    func withSingleThreadedBLAS<R>(_ body: () -> R) -> R {
        let previous = BLASGetThreading()
        let single = BLAS_THREADING_SINGLE_THREADED
        if previous != single { _ = BLASSetThreading(single) }
        defer { if previous != single { _ = BLASSetThreading(previous) } }
        return body()
    }

#else

    /// Runs `body`: OpenBLAS is already single-threaded from the moment it is opened (see `OpenBLASLibrary`).
    @inline(__always)
    func withSingleThreadedBLAS<R>(_ body: () -> R) -> R { body() }

#endif
