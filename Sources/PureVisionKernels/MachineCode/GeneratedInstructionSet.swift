/// The vector instructions generated kernels use.
public enum GeneratedInstructionSet: Sendable, Hashable {
    /// AVX2 and FMA: 256-bit vectors, 8 float or int32 lanes.
    case avx2
    /// AVX-512 (F, BW, VL): 512-bit vectors, 16 lanes, opmask-masked loads and stores. The 8-bit kernels also need
    /// VNNI (`vpdpbusd` on bytes in the GEMM, the activations offset to unsigned and the weights int8; `vpdpwssd` on
    /// int16 pairs in the depthwise convolution). A kernel asked for it runs ``avx2`` where the CPU lacks what it
    /// needs (``HostCPU/supportsGeneratedAVX512``, ``HostCPU/supportsGeneratedAVX512VNNI``) or, in the 8-bit GEMM,
    /// where a weight does not fit int8.
    case avx512

    /// The widest the CPU running this process allows.
    public static var best: GeneratedInstructionSet {
        HostCPU.supportsGeneratedAVX512 ? .avx512 : .avx2
    }
}
