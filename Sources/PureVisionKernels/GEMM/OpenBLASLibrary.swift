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
    /// On AMD CPUs with AVX-512 (Zen 4, Zen 5), which OpenBLAS before 0.3.22 does not recognise and serves with its
    /// AVX2 kernels, `OPENBLAS_CORETYPE` is set to SkylakeX for the opening as well (unless the caller set it), which
    /// selects its AVX-512 kernels: 25 % faster float convolutions on the Swift kernels' path on Zen 5.
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
        typealias CoreName = @convention(c) () -> UnsafeMutablePointer<CChar>?

        /// The entry points PureVision calls.
        struct Functions: @unchecked Sendable {
            let sgemm: SGEMM
            let sgemv: SGEMV
            /// `openblas_get_num_threads`: how many threads OpenBLAS would use for one call (1: none of its own).
            let threadCount: ThreadCount
            /// `openblas_get_corename`: the CPU type whose kernels OpenBLAS runs ("Haswell", "SkylakeX", …).
            let coreName: CoreName
        }

        /// The library's sonames in the order they are tried (Debian installs `libopenblas.so.0` through the
        /// alternatives system, pthread, OpenMP or serial build alike).
        static let candidateNames = ["libopenblas.so.0", "libopenblas.so"]

        /// The loaded functions, or nil when no OpenBLAS can be opened. Loaded once, on first use.
        static let functions: Functions? = load()

        private static func load() -> Functions? {
            var settings = ["OPENBLAS_NUM_THREADS": "1"]
            if HostCPU.isAMDWithAVX512ForBLAS && getenv("OPENBLAS_CORETYPE") == nil {
                settings["OPENBLAS_CORETYPE"] = "SkylakeX"
            }
            let previous = settings.keys.map { ($0, getenv($0).map { String(cString: $0) }) }
            for (variable, value) in settings { setenv(variable, value, 1) }
            defer {
                for (variable, value) in previous {
                    if let value { setenv(variable, value, 1) } else { unsetenv(variable) }
                }
            }
            for name in candidateNames {
                guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { continue }
                guard let sgemm = dlsym(handle, "cblas_sgemm"), let sgemv = dlsym(handle, "cblas_sgemv"),
                    let threads = dlsym(handle, "openblas_get_num_threads"),
                    let coreName = dlsym(handle, "openblas_get_corename")
                else {
                    dlclose(handle)
                    continue
                }
                return Functions(
                    sgemm: unsafeBitCast(sgemm, to: SGEMM.self), sgemv: unsafeBitCast(sgemv, to: SGEMV.self),
                    threadCount: unsafeBitCast(threads, to: ThreadCount.self),
                    coreName: unsafeBitCast(coreName, to: CoreName.self))
            }
            return nil
        }
    }
#endif
