/// How an `Interpreter` prepares and runs a model.
public struct InterpreterOptions: Sendable, Hashable {
    /// Which implementation of each operator runs.
    public enum KernelMode: Sendable, Hashable {
        /// Packed weights, BLAS and SIMD kernels, work split over `threadCount` threads.
        case optimized
        /// The plain scalar reference kernels: slow, single-threaded, the oracle the optimized ones are tested against.
        case reference
    }

    /// Threads used by one `run` (≥ 1). Default 1.
    public var threadCount: Int
    /// Default `.optimized`.
    public var kernelMode: KernelMode
    /// The most memory one model may plan, in bytes: the activation arena plus kernel scratch, and any single
    /// tensor. A model that needs more is refused at load with `InterpreterError.limitExceeded`.
    /// Default `InterpreterLimits.defaultMemoryLimit` (2 GiB).
    public var memoryLimit: Int

    /// Creates options. `threadCount` below 1 is treated as 1.
    public init(
        threadCount: Int = 1, kernelMode: KernelMode = .optimized,
        memoryLimit: Int = InterpreterLimits.defaultMemoryLimit
    ) {
        self.threadCount = max(1, threadCount)
        self.kernelMode = kernelMode
        self.memoryLimit = max(0, memoryLimit)
    }
}

/// The sizes an `Interpreter` accepts; a model beyond them is refused at load with `InterpreterError.limitExceeded`.
public enum InterpreterLimits {
    /// The default `InterpreterOptions.memoryLimit`: 2 GiB.
    public static let defaultMemoryLimit = 1 << 31
    /// The largest tensor rank.
    public static let maximumRank = 6
}
