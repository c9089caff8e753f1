import CPureVisionTargetFeatures

/// The instruction-set level the portable Swift kernels were compiled for: what they can use on the CPU that runs
/// them, fixed when the package is built (by the platform, or on x86 by `-Xswiftc -target-cpu` and `-Xcc -march`).
///
/// The portable kernels are what iOS, the App Store's macOS apps and arm64 Linux run, and what x86 runs without
/// generated code. Their code shape follows these constants, each folded at compile time: vector accumulators sized
/// for the register file, and a fused multiply-add where the target has one.
public enum SwiftKernelTarget {
    /// Whether the kernels' multiply-adds are fused (one rounding): on arm64, and on x86 built for FMA3. Without the
    /// instruction a fused multiply-add is a library call per lane, so the kernels multiply and add instead.
    public static var fusesMultiplyAdd: Bool { PUREVISION_TARGET_HAS_FMA != 0 }

    /// Whether the target has 256-bit (or wider) float vectors: x86 built for AVX or later.
    public static var hasWideVectors: Bool { PUREVISION_TARGET_HAS_AVX != 0 }

    /// Whether the target has 32 vector registers (arm64's NEON), so a kernel can hold twice the accumulators it
    /// holds in x86-64's 16.
    public static var hasManyVectorRegisters: Bool { PUREVISION_TARGET_IS_ARM64 != 0 }

    /// Whether the kernels' own register-blocked loops (``PanelGEMM``, 16-channel depthwise blocks, clamps in
    /// registers) are worth running: with 256-bit vectors or 32 vector registers. On x86-64's SSE2 baseline their
    /// accumulators spill, and a BLAS library, which picks its kernels for the CPU at run time, wins every product.
    public static var runsMicroKernels: Bool { hasWideVectors || hasManyVectorRegisters }

    /// A short name of the level, such as "x86-64 SSE2", "x86-64 AVX2 + FMA" or "arm64 NEON + FMA + dot product".
    public static var description: String {
        #if arch(arm64)
            return ["arm64 NEON + FMA", "arm64 NEON + FMA + dot product"][Int(PUREVISION_TARGET_HAS_DOTPROD)]
        #elseif arch(x86_64)
            // Widest first; arrays rather than `if`s, whose untaken branches the compiler reports as never run.
            let levels: [(present: Int32, name: String)] = [
                (PUREVISION_TARGET_HAS_AVX512F, "AVX-512"), (PUREVISION_TARGET_HAS_AVX2, "AVX2"),
                (PUREVISION_TARGET_HAS_AVX, "AVX"), (1, "SSE2"),
            ]
            let vectors = levels.first { $0.present != 0 }.map(\.name) ?? "SSE2"
            return "x86-64 " + vectors + ["", " + FMA"][Int(PUREVISION_TARGET_HAS_FMA)]
        #else
            return "portable SIMD"
        #endif
    }
}
