/// The float vector instructions generated kernels share, on register indices, emitted for one vector width: 256-bit
/// AVX2 (`ymm`, VEX-encoded, 8 lanes) or 512-bit AVX-512 (`zmm`, EVEX-encoded, 16 lanes). A kernel written against it
/// generates either from one description; only masked loads and stores differ in kind between the two and stay with
/// the kernels.
struct FloatVectorWidth: Hashable, Sendable {
    /// Whether the vectors are 512-bit.
    let isWide: Bool

    /// 256-bit vectors.
    static let avx2 = FloatVectorWidth(isWide: false)
    /// 512-bit vectors.
    static let avx512 = FloatVectorWidth(isWide: true)

    /// Floats per vector.
    var lanes: Int { isWide ? 16 : 8 }
    /// Bytes per vector.
    var bytes: Int32 { isWide ? 64 : 32 }

    /// `vmovups v, [m]`.
    func load(_ a: inout X86Assembler, _ v: Int, _ m: Memory) {
        if isWide { a.vmovups(ZMM(v), m) } else { a.vmovups(YMM(v), m) }
    }
    /// `vmovups [m], v`.
    func store(_ a: inout X86Assembler, _ m: Memory, _ v: Int) {
        if isWide { a.vmovups(m, ZMM(v)) } else { a.vmovups(m, YMM(v)) }
    }
    /// `vbroadcastss v, dword [m]`.
    func broadcast(_ a: inout X86Assembler, _ v: Int, _ m: Memory) {
        if isWide { a.vbroadcastss(ZMM(v), m) } else { a.vbroadcastss(YMM(v), m) }
    }
    /// `vfmadd231ps d, x, y`: `d = x · y + d`, rounded once.
    func fma(_ a: inout X86Assembler, _ d: Int, _ x: Int, _ y: Int) {
        if isWide { a.vfmadd231ps(ZMM(d), ZMM(x), ZMM(y)) } else { a.vfmadd231ps(YMM(d), YMM(x), YMM(y)) }
    }
    /// `vfmadd231ps d, x, [m]`.
    func fma(_ a: inout X86Assembler, _ d: Int, _ x: Int, _ m: Memory) {
        if isWide { a.vfmadd231ps(ZMM(d), ZMM(x), m) } else { a.vfmadd231ps(YMM(d), YMM(x), m) }
    }
    /// `vmaxps d, x, y` (`y` where either is NaN).
    func maximum(_ a: inout X86Assembler, _ d: Int, _ x: Int, _ y: Int) {
        if isWide { a.vmaxps(ZMM(d), ZMM(x), ZMM(y)) } else { a.vmaxps(YMM(d), YMM(x), YMM(y)) }
    }
    /// `vminps d, x, y` (`y` where either is NaN).
    func minimum(_ a: inout X86Assembler, _ d: Int, _ x: Int, _ y: Int) {
        if isWide { a.vminps(ZMM(d), ZMM(x), ZMM(y)) } else { a.vminps(YMM(d), YMM(x), YMM(y)) }
    }
    /// `vaddps d, x, [m]`.
    func add(_ a: inout X86Assembler, _ d: Int, _ x: Int, _ m: Memory) {
        if isWide { a.vaddps(ZMM(d), ZMM(x), m) } else { a.vaddps(YMM(d), YMM(x), m) }
    }
    /// Zeroes vector `v` (a VEX write of its ymm half zeroes the whole zmm as well).
    func zero(_ a: inout X86Assembler, _ v: Int) { a.vxorps(YMM(v), YMM(v), YMM(v)) }
}
