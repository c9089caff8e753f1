/// How an `Interpreter` prepares and runs a model.
public struct InterpreterOptions: Sendable, Hashable {
    /// Which implementation of each operator runs.
    public enum KernelMode: Sendable, Hashable {
        /// Packed weights, BLAS and SIMD kernels, work split over `threadCount` threads.
        case optimized
        /// The plain scalar reference kernels: slow, single-threaded, the oracle the optimized ones are tested against.
        case reference
    }

    /// Whose rounding the 8-bit operators reproduce. Both are correct; they differ by one step of the output's
    /// scale on a few values.
    public enum QuantizedArithmetic: Sendable, Hashable {
        /// LiteRT's builtin kernels: fixed-point multipliers with gemmlowp's and ruy's roundings.
        case liteRT
        /// XNNPACK, which MediaPipe runs: CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED requantize through a float
        /// multiplication rounded to nearest even, ADD with XNNPACK's 21-bit multipliers, DEQUANTIZE rounds
        /// `(q − zeroPoint) · scale` once. The other 8-bit operators (among them MEAN, SUB, MUL, QUANTIZE from float)
        /// keep LiteRT's arithmetic. The cheaper of the two: a float multiply per output instead of a fixed-point
        /// sequence.
        case xnnpack
    }

    /// Threads used by one `run` (≥ 1). Default 1.
    public var threadCount: Int
    /// Default `.optimized`.
    public var kernelMode: KernelMode
    /// The rounding of the 8-bit operators. Default `.liteRT`; MediaPipe's tasks set `.xnnpack`.
    public var quantizedArithmetic: QuantizedArithmetic = .liteRT
    /// The most memory one model may plan, in bytes: the activation arena plus kernel scratch, and any single
    /// tensor. A model that needs more is refused at load with `InterpreterError.limitExceeded`.
    /// Default `InterpreterLimits.defaultMemoryLimit` (2 GiB; 2 GiB − 1 with a 32-bit `Int`).
    public var memoryLimit: Int
    /// Whether an ADD of a residual, a PRELU or a clamping activation that alone consumes a convolution's output is
    /// computed by the convolution on each output block (one operator, no intermediate tensor) rather than as a
    /// separate pass; whether a VALID convolution applies a PAD of zero rows and columns in front of it as its own
    /// padding instead of reading the PAD's output; whether a chain of element-wise operators from an 8-bit tensor
    /// to an 8-bit or float32 one (DEQUANTIZE → channel-wise float operators → QUANTIZE; an 8-bit LOGISTIC →
    /// DEQUANTIZE) runs as one table lookup per element; and whether, with generated code,
    /// a 1×1 convolution over a concatenation whose leading inputs are one-pixel maps resized to full size (the same
    /// at every pixel) runs those channels once per image and reads the other input in place. Results are the same
    /// either way. Only in `.optimized` mode. Default true.
    public var fusesElementwiseEpilogues: Bool
    /// Whether the optimized kernels may generate machine code for their layer at load and run it: AVX2 + FMA code
    /// on Linux x86-64 machines that have both (`HostCPU.supportsGeneratedAVX2`), 512-bit AVX-512 code (and VNNI for
    /// the 8-bit convolutions) where the CPU also has that (`HostCPU.supportsGeneratedAVX512`,
    /// `supportsGeneratedAVX512VNNI`), with the same results; ignored elsewhere, where the Swift kernels run. Swift
    /// compiles for the x86-64 baseline (SSE2, no FMA), so this is how the convolutions use the machine's full vector
    /// width. The generated convolutions and fully connected layers follow XNNPACK's order and
    /// rounding (one fused multiply-add per product, from the bias), which is MediaPipe's; the Swift kernels round as
    /// LiteRT's builtin kernels do, so the two agree within float rounding. Only in `.optimized` mode. Default true.
    public var generatesMachineCode: Bool

    /// Creates options. `threadCount` below 1 is treated as 1.
    public init(
        threadCount: Int = 1, kernelMode: KernelMode = .optimized,
        memoryLimit: Int = InterpreterLimits.defaultMemoryLimit, fusesElementwiseEpilogues: Bool = true,
        generatesMachineCode: Bool = true
    ) {
        self.threadCount = max(1, threadCount)
        self.kernelMode = kernelMode
        self.memoryLimit = max(0, memoryLimit)
        self.fusesElementwiseEpilogues = fusesElementwiseEpilogues
        self.generatesMachineCode = generatesMachineCode
    }
}

/// The sizes an `Interpreter` accepts; a model beyond them is refused at load with `InterpreterError.limitExceeded`.
public enum InterpreterLimits {
    /// The default `InterpreterOptions.memoryLimit`: 2 GiB; with a 32-bit `Int`, `Int.max` (2 GiB − 1).
    public static let defaultMemoryLimit = defaultMemoryLimit(as: Int.self)

    /// `defaultMemoryLimit` computed in `Integer`: 2 GiB when the type holds it, else the type's maximum.
    package static func defaultMemoryLimit<Integer: FixedWidthInteger>(as: Integer.Type) -> Integer {
        Integer.bitWidth - (Integer.isSigned ? 1 : 0) > 31 ? Integer(1) << 31 : Integer.max
    }
    /// The largest tensor rank.
    public static let maximumRank = 6
}
