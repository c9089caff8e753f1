/// Which family of code a prepared kernel runs: what a benchmark figure of it measures.
public enum KernelFamily: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Machine code generated at load (x86-64 AVX2 / AVX-512): only where the CPU and the platform allow it.
    case generated
    /// The portable Swift SIMD loops: what iOS, arm64 and x86 without the generator run.
    case swiftSIMD
    /// A BLAS call (Accelerate on Apple, OpenBLAS on Linux), the bias, clamp and epilogue in Swift.
    case blas

    /// "generated", "Swift SIMD" or "BLAS".
    public var description: String {
        switch self {
        case .generated: "generated"
        case .swiftSIMD: "Swift SIMD"
        case .blas: "BLAS"
        }
    }
}
