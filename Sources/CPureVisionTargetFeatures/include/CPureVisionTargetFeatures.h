// The instruction-set level the package is being compiled for, as Clang's predefined macros give it, for the Swift
// kernels to read as constants: Swift has no compile-time test for CPU features, but the Clang importer compiles
// this header for the same target (and, with `-Xcc -march=...`, the same CPU) as the Swift code that imports it.
// Every value is 0 or 1 and fixed per build, so a branch on one folds away.
#ifndef CPUREVISION_TARGET_FEATURES_H
#define CPUREVISION_TARGET_FEATURES_H

// A fused multiply-add instruction: always on arm64 (NEON `fmla`), on x86 only when built for FMA3.
#if defined(__FMA__) || defined(__ARM_FEATURE_FMA) || defined(__aarch64__)
#define PUREVISION_TARGET_HAS_FMA 1
#else
#define PUREVISION_TARGET_HAS_FMA 0
#endif

// 256-bit float vectors (x86 AVX).
#if defined(__AVX__)
#define PUREVISION_TARGET_HAS_AVX 1
#else
#define PUREVISION_TARGET_HAS_AVX 0
#endif

// 256-bit integer vectors (x86 AVX2).
#if defined(__AVX2__)
#define PUREVISION_TARGET_HAS_AVX2 1
#else
#define PUREVISION_TARGET_HAS_AVX2 0
#endif

// 512-bit vectors (x86 AVX-512 Foundation).
#if defined(__AVX512F__)
#define PUREVISION_TARGET_HAS_AVX512F 1
#else
#define PUREVISION_TARGET_HAS_AVX512F 0
#endif

// Thirty-two 128-bit vector registers (arm64's NEON register file, against sixteen on x86-64).
#if defined(__aarch64__) || defined(__arm64__)
#define PUREVISION_TARGET_IS_ARM64 1
#else
#define PUREVISION_TARGET_IS_ARM64 0
#endif

// The 8-bit dot-product instructions (arm64 `sdot` / `udot`, Armv8.4 and every Apple A13 or later).
#if defined(__ARM_FEATURE_DOTPROD)
#define PUREVISION_TARGET_HAS_DOTPROD 1
#else
#define PUREVISION_TARGET_HAS_DOTPROD 0
#endif

#endif
