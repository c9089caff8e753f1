import PureVisionKernels

/// Whether this run computes the models in MediaPipe's own arithmetic: XNNPACK's order and rounding, which the
/// generated AVX2/FMA kernels reproduce (Linux x86-64 with AVX2 + FMA, as in CI). Task results then equal MediaPipe
/// 0.10.14's to the last bits, tracking loops included, and the parity tests hold them to the issues' bounds.
/// Elsewhere the Swift kernels round as LiteRT's builtin kernels do; MediaPipe's tracking amplifies those last-bit
/// differences from frame to frame, and the looser bounds measured for that path apply.
enum MediaPipeArithmetic {
    static let isReproduced = HostCPU.supportsGeneratedAVX2
}
