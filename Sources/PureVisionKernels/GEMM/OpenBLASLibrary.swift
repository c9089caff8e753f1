#if canImport(CPureVisionOpenBLAS) && !canImport(Accelerate) && canImport(Glibc)
    import CPureVisionOpenBLAS
    import Glibc

    /// OpenBLAS, loaded at the first BLAS call instead of linked.
    ///
    /// A linked OpenBLAS starts its worker threads when the process loads it — one per core — and they poll for about
    /// 0.1 s after every call, holding the core that the kernels' `ThreadPool` was given. `openblas_set_num_threads(1)`
    /// only stops OpenBLAS from handing them work; they still exist and still poll. OpenBLAS reads
    /// `OPENBLAS_NUM_THREADS` once, while the library initializes, and with 1 it starts no thread at all: so the library
    /// is opened here with that variable set to 1 (the caller's value is restored right after), whatever the
    /// environment. PureVision then runs no thread besides the pool's, and BLAS stays single-threaded, as the kernels
    /// need (they split the work themselves).
    ///
    /// When no OpenBLAS library can be opened, ``functions`` is nil and `GEMM` runs its portable loops.
    enum OpenBLASLibrary {
        typealias SGEMM =
            @convention(c) (
                CBLAS_ORDER, CBLAS_TRANSPOSE, CBLAS_TRANSPOSE, Int32, Int32, Int32,
                Float, UnsafePointer<Float>?, Int32, UnsafePointer<Float>?, Int32, Float, UnsafeMutablePointer<Float>?,
                Int32
            ) -> Void
        typealias SGEMV =
            @convention(c) (
                CBLAS_ORDER, CBLAS_TRANSPOSE, Int32, Int32,
                Float, UnsafePointer<Float>?, Int32, UnsafePointer<Float>?, Int32, Float, UnsafeMutablePointer<Float>?,
                Int32
            ) -> Void
        typealias ThreadCount = @convention(c) () -> Int32

        /// The entry points PureVision calls.
        struct Functions: @unchecked Sendable {
            let sgemm: SGEMM
            let sgemv: SGEMV
            /// `openblas_get_num_threads`: how many threads OpenBLAS would use for one call (1: none of its own).
            let threadCount: ThreadCount
        }

        /// The library's sonames in the order they are tried (Debian installs `libopenblas.so.0` through the
        /// alternatives system, pthread, OpenMP or serial build alike).
        static let candidateNames = ["libopenblas.so.0", "libopenblas.so"]

        /// The loaded functions, or nil when no OpenBLAS can be opened. Loaded once, on first use.
        static let functions: Functions? = load()

        private static func load() -> Functions? {
            let variable = "OPENBLAS_NUM_THREADS"
            let previous = getenv(variable).map { String(cString: $0) }
            setenv(variable, "1", 1)
            defer {
                if let previous { setenv(variable, previous, 1) } else { unsetenv(variable) }
            }
            for name in candidateNames {
                guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { continue }
                guard let sgemm = dlsym(handle, "cblas_sgemm"), let sgemv = dlsym(handle, "cblas_sgemv"),
                    let threads = dlsym(handle, "openblas_get_num_threads")
                else {
                    dlclose(handle)
                    continue
                }
                return Functions(
                    sgemm: unsafeBitCast(sgemm, to: SGEMM.self), sgemv: unsafeBitCast(sgemv, to: SGEMV.self),
                    threadCount: unsafeBitCast(threads, to: ThreadCount.self))
            }
            return nil
        }
    }
#endif
