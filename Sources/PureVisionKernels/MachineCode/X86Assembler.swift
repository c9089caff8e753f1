/// A 64-bit general-purpose register, numbered as in the x86-64 encoding (`r8`…`r15` set the REX/VEX extension bit).
public enum GPR: UInt8, Sendable, CaseIterable {
    case rax = 0
    case rcx, rdx, rbx, rsp, rbp, rsi, rdi, r8, r9, r10, r11, r12, r13, r14, r15

    /// The register's assembler name, e.g. `r10`.
    public var name: String { "\(self)" }
}

/// A 256-bit AVX register `ymm0`…`ymm15`.
public struct YMM: Sendable, Hashable, CustomStringConvertible {
    /// 0…15.
    public let index: UInt8

    /// `ymm<index>`; `index` must be in 0…15.
    public init(_ index: Int) {
        precondition((0..<16).contains(index), "YMM: no register ymm\(index)")
        self.index = UInt8(index)
    }

    public var description: String { "ymm\(index)" }
}

/// A memory operand `[base + index · scale + displacement]`.
public struct Memory: Sendable, Hashable, CustomStringConvertible {
    /// The base register.
    public var base: GPR
    /// The index register, or nil; `rsp` cannot be an index.
    public var index: GPR?
    /// 1, 2, 4 or 8.
    public var scale: Int
    /// A signed byte offset.
    public var displacement: Int32

    /// `[base + displacement]`.
    public init(_ base: GPR, _ displacement: Int32 = 0) {
        self.base = base
        self.index = nil
        self.scale = 1
        self.displacement = displacement
    }

    /// `[base + index · scale + displacement]`.
    public init(_ base: GPR, index: GPR, scale: Int, _ displacement: Int32 = 0) {
        precondition(index != .rsp, "Memory: rsp cannot be an index register")
        precondition([1, 2, 4, 8].contains(scale), "Memory: scale must be 1, 2, 4 or 8, not \(scale)")
        self.base = base
        self.index = index
        self.scale = scale
        self.displacement = displacement
    }

    /// Intel syntax, e.g. `[r8+r10*4+64]`.
    public var description: String {
        var text = "[\(base.name)"
        if let index { text += "+\(index.name)*\(scale)" }
        if displacement != 0 { text += displacement > 0 ? "+\(displacement)" : "\(displacement)" }
        return text + "]"
    }
}

/// A jump target inside one ``X86Assembler``'s code.
public struct AssemblerLabel: Sendable, Hashable {
    fileprivate let id: Int
}

/// Why generated machine code could not be produced or mapped.
public enum MachineCodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A jump refers to a label that was never bound.
    case unboundLabel(Int)
    /// A jump's distance does not fit its 32-bit displacement.
    case jumpOutOfRange
    /// The operating system refused to map or protect executable memory (`errno` given).
    case mappingFailed(operation: String, errno: Int32)

    public var description: String {
        switch self {
        case .unboundLabel(let id): "machine code: label \(id) is jumped to but never bound"
        case .jumpOutOfRange: "machine code: a jump does not fit a 32-bit displacement"
        case .mappingFailed(let operation, let code): "machine code: \(operation) failed (errno \(code))"
        }
    }
}

/// Emits x86-64 machine code: the AVX2/FMA single-precision instructions the generated kernels use, the integer
/// instructions that drive their loops, and labels for jumps.
///
/// Each method appends one instruction in the encoding GNU `as` chooses for it (2-byte VEX prefix where it can,
/// 8-bit immediates and displacements where they fit); `PureVisionKernelsTests/X86AssemblerTests` checks that against
/// `as` itself through `tools/make_x86_encoding_goldens.py`. Jumps always take a 32-bit displacement, resolved by
/// ``finish()``. Vector instructions are 256-bit (`VEX.L = 1`) and operate on packed Float32.
public struct X86Assembler: Sendable {
    /// The bytes emitted so far (jump displacements unresolved until ``finish()``).
    public private(set) var bytes: [UInt8] = []
    private var labelOffsets: [Int?] = []
    /// (offset of a rel32 field, label) for every jump.
    private var fixups: [(field: Int, label: Int)] = []

    /// An empty assembler.
    public init() {}

    // MARK: Labels and control flow

    /// A new label, bound later with ``bind(_:)``.
    public mutating func makeLabel() -> AssemblerLabel {
        labelOffsets.append(nil)
        return AssemblerLabel(id: labelOffsets.count - 1)
    }

    /// Binds `label` to the current position; a label is bound once.
    public mutating func bind(_ label: AssemblerLabel) {
        precondition(labelOffsets[label.id] == nil, "X86Assembler: label \(label.id) bound twice")
        labelOffsets[label.id] = bytes.count
    }

    /// `jmp label`.
    public mutating func jmp(_ label: AssemblerLabel) {
        bytes.append(0xE9)
        addFixup(label)
    }

    /// `jnz label`: jumps when the last arithmetic result was not zero.
    public mutating func jnz(_ label: AssemblerLabel) { conditionalJump(0x85, label) }
    /// `jz label`.
    public mutating func jz(_ label: AssemblerLabel) { conditionalJump(0x84, label) }
    /// `jg label`: jumps when the last comparison or arithmetic result was greater than zero (signed).
    public mutating func jg(_ label: AssemblerLabel) { conditionalJump(0x8F, label) }
    /// `jle label`: signed less-or-equal.
    public mutating func jle(_ label: AssemblerLabel) { conditionalJump(0x8E, label) }
    /// `jl label`: signed less.
    public mutating func jl(_ label: AssemblerLabel) { conditionalJump(0x8C, label) }
    /// `jge label`: signed greater-or-equal.
    public mutating func jge(_ label: AssemblerLabel) { conditionalJump(0x8D, label) }

    /// `ret`.
    public mutating func ret() { bytes.append(0xC3) }

    /// `pause`: the spin-wait hint. A polling loop that executes it lets the other hardware thread of the core run
    /// and does not flood the pipeline with speculative loads of the polled line.
    public mutating func pause() { bytes += [0xF3, 0x90] }

    private mutating func conditionalJump(_ opcode: UInt8, _ label: AssemblerLabel) {
        bytes += [0x0F, opcode]
        addFixup(label)
    }

    private mutating func addFixup(_ label: AssemblerLabel) {
        fixups.append((bytes.count, label.id))
        bytes += [0, 0, 0, 0]
    }

    /// The finished code with every jump resolved.
    public func finish() throws(MachineCodeError) -> [UInt8] {
        var code = bytes
        for fixup in fixups {
            guard let target = labelOffsets[fixup.label] else { throw .unboundLabel(fixup.label) }
            guard let distance = Int32(exactly: target - (fixup.field + 4)) else { throw .jumpOutOfRange }
            let bits = UInt32(bitPattern: distance)
            for byte in 0..<4 { code[fixup.field + byte] = UInt8(truncatingIfNeeded: bits >> (8 * UInt32(byte))) }
        }
        return code
    }

    // MARK: General-purpose instructions (64-bit operand size)

    /// `push reg`.
    public mutating func push(_ register: GPR) {
        if register.rawValue >= 8 { bytes.append(0x41) }
        bytes.append(0x50 + (register.rawValue & 7))
    }

    /// `pop reg`.
    public mutating func pop(_ register: GPR) {
        if register.rawValue >= 8 { bytes.append(0x41) }
        bytes.append(0x58 + (register.rawValue & 7))
    }

    /// `mov dst, src`.
    public mutating func mov(_ destination: GPR, _ source: GPR) {
        registerForm(0x89, reg: source.rawValue, rm: destination.rawValue)
    }

    /// `mov dst, imm`: the sign-extended 32-bit form when `value` fits it, else the 64-bit immediate form.
    public mutating func mov(_ destination: GPR, _ value: Int) {
        if let small = Int32(exactly: value) {
            registerForm(0xC7, reg: 0, rm: destination.rawValue)
            append32(UInt32(bitPattern: small))
        } else {
            bytes.append(0x48 | (destination.rawValue >> 3))
            bytes.append(0xB8 + (destination.rawValue & 7))
            let bits = UInt64(bitPattern: Int64(value))
            for byte in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt64(byte)))) }
        }
    }

    /// `mov dst, qword [memory]`.
    public mutating func mov(_ destination: GPR, _ source: Memory) {
        memoryForm(0x8B, reg: destination.rawValue, source)
    }

    /// `mov qword [memory], src`.
    public mutating func storeQuadword(_ source: GPR, at destination: Memory) {
        memoryForm(0x89, reg: source.rawValue, destination)
    }

    /// `lea dst, [memory]`.
    public mutating func lea(_ destination: GPR, _ source: Memory) {
        memoryForm(0x8D, reg: destination.rawValue, source)
    }

    /// `add dst, src`.
    public mutating func add(_ destination: GPR, _ source: GPR) {
        registerForm(0x01, reg: source.rawValue, rm: destination.rawValue)
    }

    /// `sub dst, src`.
    public mutating func sub(_ destination: GPR, _ source: GPR) {
        registerForm(0x29, reg: source.rawValue, rm: destination.rawValue)
    }

    /// `add dst, imm` (sets the flags).
    public mutating func add(_ destination: GPR, _ value: Int32) { arithmeticImmediate(0, destination, value) }
    /// `sub dst, imm` (sets the flags).
    public mutating func sub(_ destination: GPR, _ value: Int32) { arithmeticImmediate(5, destination, value) }
    /// `cmp reg, imm`.
    public mutating func cmp(_ register: GPR, _ value: Int32) { arithmeticImmediate(7, register, value) }

    /// `cmp a, b`.
    public mutating func cmp(_ a: GPR, _ b: GPR) { registerForm(0x39, reg: b.rawValue, rm: a.rawValue) }

    /// `dec reg` (sets the zero flag when the result is 0).
    public mutating func dec(_ register: GPR) { registerForm(0xFF, reg: 1, rm: register.rawValue) }

    /// `test a, b`.
    public mutating func test(_ a: GPR, _ b: GPR) { registerForm(0x85, reg: b.rawValue, rm: a.rawValue) }

    private mutating func arithmeticImmediate(_ extensionDigit: UInt8, _ register: GPR, _ value: Int32) {
        if let small = Int8(exactly: value) {
            registerForm(0x83, reg: extensionDigit, rm: register.rawValue)
            bytes.append(UInt8(bitPattern: small))
        } else if register == .rax {
            // The accumulator's own short form: opcode (digit · 8 + 5), no ModRM.
            bytes += [0x48, (extensionDigit << 3) | 5]
            append32(UInt32(bitPattern: value))
        } else {
            registerForm(0x81, reg: extensionDigit, rm: register.rawValue)
            append32(UInt32(bitPattern: value))
        }
    }

    /// REX.W opcode with a register-direct ModRM.
    private mutating func registerForm(_ opcode: UInt8, reg: UInt8, rm: UInt8) {
        bytes.append(0x48 | ((reg >> 3) << 2) | (rm >> 3))
        bytes.append(opcode)
        bytes.append(0xC0 | ((reg & 7) << 3) | (rm & 7))
    }

    /// REX.W opcode with a memory ModRM.
    private mutating func memoryForm(_ opcode: UInt8, reg: UInt8, _ memory: Memory) {
        let x = (memory.index?.rawValue ?? 0) >> 3
        bytes.append(0x48 | ((reg >> 3) << 2) | (x << 1) | (memory.base.rawValue >> 3))
        bytes.append(opcode)
        modRM(reg: reg, memory)
    }

    // MARK: AVX / FMA (256-bit packed single precision)

    /// `vmovups ymm, [memory]`: unaligned load.
    public mutating func vmovups(_ destination: YMM, _ source: Memory) {
        vex(map: 1, pp: 0, opcode: 0x10, reg: destination.index, vvvv: 0, source)
    }

    /// `vmovups [memory], ymm`: unaligned store.
    public mutating func vmovups(_ destination: Memory, _ source: YMM) {
        vex(map: 1, pp: 0, opcode: 0x11, reg: source.index, vvvv: 0, destination)
    }

    /// `vbroadcastss ymm, dword [memory]`: one float to all eight lanes.
    public mutating func vbroadcastss(_ destination: YMM, _ source: Memory) {
        vex(map: 2, pp: 1, opcode: 0x18, reg: destination.index, vvvv: 0, source)
    }

    /// `vfmadd231ps dst, a, b`: `dst = a · b + dst`, one rounding.
    public mutating func vfmadd231ps(_ destination: YMM, _ a: YMM, _ b: YMM) {
        vex(map: 2, pp: 1, opcode: 0xB8, reg: destination.index, vvvv: a.index, rm: b.index)
    }

    /// `vfmadd231ps dst, a, [memory]`: `dst = a · [memory] + dst`, one rounding.
    public mutating func vfmadd231ps(_ destination: YMM, _ a: YMM, _ b: Memory) {
        vex(map: 2, pp: 1, opcode: 0xB8, reg: destination.index, vvvv: a.index, b)
    }

    /// `vaddps dst, a, b`.
    public mutating func vaddps(_ destination: YMM, _ a: YMM, _ b: YMM) { packed(0x58, destination, a, b) }
    /// `vaddps dst, a, [memory]`.
    public mutating func vaddps(_ destination: YMM, _ a: YMM, _ b: Memory) { packed(0x58, destination, a, b) }
    /// `vmulps dst, a, b`.
    public mutating func vmulps(_ destination: YMM, _ a: YMM, _ b: YMM) { packed(0x59, destination, a, b) }
    /// `vmulps dst, a, [memory]`.
    public mutating func vmulps(_ destination: YMM, _ a: YMM, _ b: Memory) { packed(0x59, destination, a, b) }
    /// `vminps dst, a, b`: per lane `a < b ? a : b` (the second operand when either is NaN).
    public mutating func vminps(_ destination: YMM, _ a: YMM, _ b: YMM) { packed(0x5D, destination, a, b) }
    /// `vminps dst, a, [memory]`.
    public mutating func vminps(_ destination: YMM, _ a: YMM, _ b: Memory) { packed(0x5D, destination, a, b) }
    /// `vcvtdq2ps dst, src`: 8 int32 to float, rounded as MXCSR says (to nearest, ties to even, by default).
    public mutating func vcvtdq2ps(_ destination: YMM, _ source: YMM) {
        vex(map: 1, pp: 0, opcode: 0x5B, reg: destination.index, vvvv: 0, rm: source.index)
    }
    /// `vcvtps2dq dst, src`: 8 floats to int32, rounded as MXCSR says (to nearest, ties to even, by default);
    /// out-of-range lanes become `Int32.min`.
    public mutating func vcvtps2dq(_ destination: YMM, _ source: YMM) {
        vex(map: 1, pp: 1, opcode: 0x5B, reg: destination.index, vvvv: 0, rm: source.index)
    }
    /// `vmaxps dst, a, b`: per lane `a > b ? a : b` (the second operand when either is NaN).
    public mutating func vmaxps(_ destination: YMM, _ a: YMM, _ b: YMM) { packed(0x5F, destination, a, b) }
    /// `vxorps dst, a, b` (`vxorps r, r, r` zeroes `r`).
    public mutating func vxorps(_ destination: YMM, _ a: YMM, _ b: YMM) { packed(0x57, destination, a, b) }

    /// `vzeroupper`: clears the upper halves of all vector registers; generated code runs it before returning to
    /// SSE code to avoid the AVX–SSE transition penalty.
    public mutating func vzeroupper() { bytes += [0xC5, 0xF8, 0x77] }

    private mutating func packed(_ opcode: UInt8, _ destination: YMM, _ a: YMM, _ b: YMM) {
        vex(map: 1, pp: 0, opcode: opcode, reg: destination.index, vvvv: a.index, rm: b.index)
    }

    private mutating func packed(_ opcode: UInt8, _ destination: YMM, _ a: YMM, _ b: Memory) {
        vex(map: 1, pp: 0, opcode: opcode, reg: destination.index, vvvv: a.index, b)
    }

    /// VEX.256.W0 instruction with a register-direct operand.
    private mutating func vex(map: UInt8, pp: UInt8, opcode: UInt8, reg: UInt8, vvvv: UInt8, rm: UInt8) {
        vexPrefix(map: map, pp: pp, r: reg >> 3, x: 0, b: rm >> 3, vvvv: vvvv)
        bytes.append(opcode)
        bytes.append(0xC0 | ((reg & 7) << 3) | (rm & 7))
    }

    /// VEX.256.W0 instruction with a memory operand.
    private mutating func vex(map: UInt8, pp: UInt8, opcode: UInt8, reg: UInt8, vvvv: UInt8, _ memory: Memory) {
        vexPrefix(
            map: map, pp: pp, r: reg >> 3, x: (memory.index?.rawValue ?? 0) >> 3, b: memory.base.rawValue >> 3,
            vvvv: vvvv)
        bytes.append(opcode)
        modRM(reg: reg, memory)
    }

    /// The 2-byte form (C5) when the map is 0F and neither X nor B is needed, else the 3-byte form (C4); L = 1.
    /// R, X, B and vvvv are stored inverted.
    private mutating func vexPrefix(map: UInt8, pp: UInt8, r: UInt8, x: UInt8, b: UInt8, vvvv: UInt8) {
        let inverted = (~vvvv & 0xF) << 3
        if map == 1 && x == 0 && b == 0 {
            bytes += [0xC5, ((~r & 1) << 7) | inverted | 0x04 | pp]
        } else {
            bytes += [0xC4, ((~r & 1) << 7) | ((~x & 1) << 6) | ((~b & 1) << 5) | map, inverted | 0x04 | pp]
        }
    }

    /// ModRM (+ SIB + displacement) for `reg` and a memory operand. An 8-bit displacement counts in units of
    /// `displacementScale` bytes (EVEX's compressed disp8·N; 1 for legacy and VEX encodings), so it is used only for
    /// multiples of that unit.
    private mutating func modRM(reg: UInt8, _ memory: Memory, displacementScale: Int32 = 1) {
        let base = memory.base.rawValue & 7
        let displacement = memory.displacement
        let compressed: Int8? =
            displacement % displacementScale == 0 ? Int8(exactly: displacement / displacementScale) : nil
        // rbp/r13 as a base with mod 00 would mean RIP-relative / no base: give them an explicit 8-bit 0.
        let mod: UInt8 =
            displacement == 0 && base != 5 ? 0 : compressed != nil ? 1 : 2
        // rsp/r12 as a base, or any index, needs a SIB byte; index 100 means "no index".
        if memory.index != nil || base == 4 {
            bytes.append((mod << 6) | ((reg & 7) << 3) | 4)
            let scaleBits: UInt8 = memory.scale == 8 ? 3 : memory.scale == 4 ? 2 : memory.scale == 2 ? 1 : 0
            let index = (memory.index?.rawValue ?? 4) & 7
            bytes.append((scaleBits << 6) | (index << 3) | base)
        } else {
            bytes.append((mod << 6) | ((reg & 7) << 3) | base)
        }
        if mod == 1, let compressed {
            bytes.append(UInt8(bitPattern: compressed))
        } else if mod == 2 {
            append32(UInt32(bitPattern: displacement))
        }
    }

    private mutating func append32(_ value: UInt32) {
        for byte in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt32(byte)))) }
    }
}

// MARK: Partial-vector stores and masked loads (tails of rows whose length is not a multiple of 8)

extension X86Assembler {
    /// `vmovups xmmword [memory], xmm`: stores the low four lanes of `source` (its `xmm` half).
    public mutating func vmovupsLow128(_ destination: Memory, _ source: YMM) {
        vex128(map: 1, pp: 0, opcode: 0x11, reg: source.index, destination)
    }

    /// `vmovlps qword [memory], xmm`: stores lanes 0 and 1 of `source`.
    public mutating func vmovlps(_ destination: Memory, _ source: YMM) {
        vex128(map: 1, pp: 0, opcode: 0x13, reg: source.index, destination)
    }

    /// `vextractps dword [memory], xmm, lane`: stores lane `lane` (0…3) of `source`'s low half.
    public mutating func vextractps(_ destination: Memory, _ source: YMM, lane: UInt8) {
        precondition(lane < 4, "vextractps: lane \(lane) is not 0…3")
        vex128(map: 3, pp: 1, opcode: 0x17, reg: source.index, destination)
        bytes.append(lane)
    }

    /// `vextractf128 xmm, ymm, half`: `destination`'s low half (upper half zeroed) = `source`'s half `half` (0/1).
    public mutating func vextractf128(_ destination: YMM, _ source: YMM, half: UInt8) {
        precondition(half < 2, "vextractf128: half \(half) is not 0 or 1")
        vex(map: 3, pp: 1, opcode: 0x19, reg: source.index, vvvv: 0, rm: destination.index)
        bytes.append(half)
    }

    /// `vmaskmovps ymm, mask, [memory]`: loads the lanes whose `mask` sign bit is set, zeroes the others; masked
    /// lanes are not read (no fault past the end of a buffer).
    public mutating func vmaskmovps(_ destination: YMM, mask: YMM, _ source: Memory) {
        vex(map: 2, pp: 1, opcode: 0x2C, reg: destination.index, vvvv: mask.index, source)
    }

    /// VEX.128.W0 instruction with a memory operand (the 256-bit helpers set `VEX.L`).
    private mutating func vex128(map: UInt8, pp: UInt8, opcode: UInt8, reg: UInt8, _ memory: Memory) {
        let start = bytes.count
        vex(map: map, pp: pp, opcode: opcode, reg: reg, vvvv: 0, memory)
        // Clear VEX.L: bit 2 of the last prefix byte (byte 1 of C5, byte 2 of C4).
        let lByte = bytes[start] == 0xC5 ? start + 1 : start + 2
        bytes[lByte] &= ~0x04
    }
}

// MARK: AVX2 packed integers (the int8 GEMM: int16 multiply-adds into int32, requantization, packing to bytes)

extension X86Assembler {
    /// `vpbroadcastd ymm, dword [memory]`: one int32 to all eight lanes.
    public mutating func vpbroadcastd(_ destination: YMM, _ source: Memory) {
        vex(map: 2, pp: 1, opcode: 0x58, reg: destination.index, vvvv: 0, source)
    }

    /// `vpmaddwd dst, a, b`: lane j (int32) = `a[2j] · b[2j] + a[2j + 1] · b[2j + 1]` over int16 lanes.
    public mutating func vpmaddwd(_ destination: YMM, _ a: YMM, _ b: YMM) { integer(0xF5, destination, a, b) }
    /// `vpmaddwd dst, a, [memory]`.
    public mutating func vpmaddwd(_ destination: YMM, _ a: YMM, _ b: Memory) { integer(0xF5, destination, a, b) }
    /// `vpaddd dst, a, b`: int32 lanes, wrapping.
    public mutating func vpaddd(_ destination: YMM, _ a: YMM, _ b: YMM) { integer(0xFE, destination, a, b) }
    /// `vpaddd dst, a, [memory]`.
    public mutating func vpaddd(_ destination: YMM, _ a: YMM, _ b: Memory) { integer(0xFE, destination, a, b) }
    /// `vpsubd dst, a, b`: int32 lanes `a − b`, wrapping.
    public mutating func vpsubd(_ destination: YMM, _ a: YMM, _ b: YMM) { integer(0xFA, destination, a, b) }
    /// `vpaddq dst, a, [memory]`: int64 lanes, wrapping.
    public mutating func vpaddq(_ destination: YMM, _ a: YMM, _ b: Memory) { integer(0xD4, destination, a, b) }
    /// `vpand dst, a, [memory]`.
    public mutating func vpand(_ destination: YMM, _ a: YMM, _ b: Memory) { integer(0xDB, destination, a, b) }
    /// `vpcmpgtd dst, a, b`: int32 lanes, all ones where `a > b` (signed), else zero.
    public mutating func vpcmpgtd(_ destination: YMM, _ a: YMM, _ b: YMM) { integer(0x66, destination, a, b) }
    /// `vpackssdw dst, a, b`: int32 → int16 with signed saturation, per 128-bit half: `a`'s four lanes, then `b`'s.
    public mutating func vpackssdw(_ destination: YMM, _ a: YMM, _ b: YMM) { integer(0x6B, destination, a, b) }

    /// `vpmuldq dst, a, [memory]`: the signed 64-bit products of the even int32 lanes (0, 2, 4, 6).
    public mutating func vpmuldq(_ destination: YMM, _ a: YMM, _ b: Memory) {
        vex(map: 2, pp: 1, opcode: 0x28, reg: destination.index, vvvv: a.index, b)
    }
    /// `vpsravd dst, a, [memory]`: int32 lanes of `a` shifted right arithmetically by the matching lane's count.
    public mutating func vpsravd(_ destination: YMM, _ a: YMM, _ counts: Memory) {
        vex(map: 2, pp: 1, opcode: 0x46, reg: destination.index, vvvv: a.index, counts)
    }
    /// `vpmaxsd dst, a, [memory]`: signed int32 maximum.
    public mutating func vpmaxsd(_ destination: YMM, _ a: YMM, _ b: Memory) {
        vex(map: 2, pp: 1, opcode: 0x3D, reg: destination.index, vvvv: a.index, b)
    }
    /// `vpminsd dst, a, [memory]`: signed int32 minimum.
    public mutating func vpminsd(_ destination: YMM, _ a: YMM, _ b: Memory) {
        vex(map: 2, pp: 1, opcode: 0x39, reg: destination.index, vvvv: a.index, b)
    }

    /// `vpsrlq dst, src, count`: int64 lanes shifted right logically.
    public mutating func vpsrlq(_ destination: YMM, _ source: YMM, _ count: UInt8) {
        vex(map: 1, pp: 1, opcode: 0x73, reg: 2, vvvv: destination.index, rm: source.index)
        bytes.append(count)
    }
    /// `vpsllq dst, src, count`: int64 lanes shifted left.
    public mutating func vpsllq(_ destination: YMM, _ source: YMM, _ count: UInt8) {
        vex(map: 1, pp: 1, opcode: 0x73, reg: 6, vvvv: destination.index, rm: source.index)
        bytes.append(count)
    }

    /// `vpblendd dst, a, b, mask`: int32 lane j from `b` where bit j of `mask` is set, else from `a`.
    public mutating func vpblendd(_ destination: YMM, _ a: YMM, _ b: YMM, mask: UInt8) {
        vex(map: 3, pp: 1, opcode: 0x02, reg: destination.index, vvvv: a.index, rm: b.index)
        bytes.append(mask)
    }
    /// `vpermq dst, src, order`: int64 lane j of `dst` = lane `(order >> 2j) & 3` of `src`.
    public mutating func vpermq(_ destination: YMM, _ source: YMM, order: UInt8) {
        // VEX.W1 needs the 3-byte prefix: C4, RXB + map 3, W vvvv(1111) L pp(01).
        let r = destination.index >> 3
        let b = source.index >> 3
        let rxbAndMap: UInt8 = ((~r & 1) << 7) | 0x40 | ((~b & 1) << 5) | 3
        let wVVVVLengthAndPrefix: UInt8 = 0x80 | 0x78 | 0x04 | 1
        bytes += [0xC4, rxbAndMap, wVVVVLengthAndPrefix, 0x00]
        bytes.append(0xC0 | ((destination.index & 7) << 3) | (source.index & 7))
        bytes.append(order)
    }
    /// `vextracti128 xmm, ymm, half`: `destination`'s low half (upper half zeroed) = `source`'s half `half` (0/1).
    public mutating func vextracti128(_ destination: YMM, _ source: YMM, half: UInt8) {
        precondition(half < 2, "vextracti128: half \(half) is not 0 or 1")
        vex(map: 3, pp: 1, opcode: 0x39, reg: source.index, vvvv: 0, rm: destination.index)
        bytes.append(half)
    }

    /// `vpacksswb xmm, a, b` (128-bit): int16 → int8 with signed saturation, `a`'s eight lanes then `b`'s.
    public mutating func vpacksswb128(_ destination: YMM, _ a: YMM, _ b: YMM) {
        let start = bytes.count
        integer(0x63, destination, a, b)
        clearVEXL(at: start)
    }
    /// `vpxor xmm, a, xmmword [memory]` (128-bit).
    public mutating func vpxor128(_ destination: YMM, _ a: YMM, _ b: Memory) {
        let start = bytes.count
        integer(0xEF, destination, a, b)
        clearVEXL(at: start)
    }

    private mutating func integer(_ opcode: UInt8, _ destination: YMM, _ a: YMM, _ b: YMM) {
        vex(map: 1, pp: 1, opcode: opcode, reg: destination.index, vvvv: a.index, rm: b.index)
    }

    private mutating func integer(_ opcode: UInt8, _ destination: YMM, _ a: YMM, _ b: Memory) {
        vex(map: 1, pp: 1, opcode: opcode, reg: destination.index, vvvv: a.index, b)
    }

    /// Clears VEX.L of the instruction starting at `start`: bit 2 of the last prefix byte.
    private mutating func clearVEXL(at start: Int) {
        bytes[bytes[start] == 0xC5 ? start + 1 : start + 2] &= ~0x04
    }
}

extension X86Assembler {
    /// `vpunpckldq dst, a, b`: per 128-bit half, int32 lanes `a0 b0 a1 b1`.
    public mutating func vpunpckldq(_ destination: YMM, _ a: YMM, _ b: YMM) { integer(0x62, destination, a, b) }
    /// `vpunpckhdq dst, a, b`: per 128-bit half, int32 lanes `a2 b2 a3 b3`.
    public mutating func vpunpckhdq(_ destination: YMM, _ a: YMM, _ b: YMM) { integer(0x6A, destination, a, b) }
    /// `vpsrad dst, src, count`: int32 lanes shifted right arithmetically.
    public mutating func vpsrad(_ destination: YMM, _ source: YMM, _ count: UInt8) {
        vex(map: 1, pp: 1, opcode: 0x72, reg: 4, vvvv: destination.index, rm: source.index)
        bytes.append(count)
    }
}

// MARK: AVX-512 (EVEX): 512-bit float and integer arithmetic, VNNI multiply-adds, masked loads and stores

/// A 512-bit AVX-512 register `zmm0`…`zmm31`; `zmm0`…`zmm15` share their low halves with ``YMM`` 0…15.
public struct ZMM: Sendable, Hashable, CustomStringConvertible {
    /// 0…31.
    public let index: UInt8

    /// `zmm<index>`; `index` must be in 0…31.
    public init(_ index: Int) {
        precondition((0..<32).contains(index), "ZMM: no register zmm\(index)")
        self.index = UInt8(index)
    }

    /// The same register's low 256 bits, for VEX-encoded instructions (registers 0…15 only).
    public var ymm: YMM { YMM(Int(index)) }

    public var description: String { "zmm\(index)" }
}

/// An AVX-512 opmask register `k1`…`k7` (`k0` means "no mask" as a write mask, so it is not offered).
public struct OpMask: Sendable, Hashable, CustomStringConvertible {
    /// 1…7.
    public let index: UInt8

    /// `k<index>`; `index` must be in 1…7.
    public init(_ index: Int) {
        precondition((1..<8).contains(index), "OpMask: no write-mask register k\(index)")
        self.index = UInt8(index)
    }

    public var description: String { "k\(index)" }
}

extension X86Assembler {
    /// `vmovdqu32 zmm, zmmword [memory]`: 64 bytes, no alignment needed.
    public mutating func vmovdqu32(_ destination: ZMM, _ source: Memory) {
        evex(map: 1, pp: 2, w: 0, opcode: 0x6F, length: 2, reg: destination.index, vvvv: 0, source, tuple: 64)
    }

    /// `vpbroadcastd zmm, dword [memory]`: one int32 (four bytes) to all sixteen lanes.
    public mutating func vpbroadcastd(_ destination: ZMM, _ source: Memory) {
        evex(map: 2, pp: 1, w: 0, opcode: 0x58, length: 2, reg: destination.index, vvvv: 0, source, tuple: 4)
    }

    /// `vpdpbusd dst, a, b` (AVX-512 VNNI): int32 lane j of `dst` += the sum over i < 4 of unsigned byte `4j + i` of
    /// `a` times signed byte `4j + i` of `b`, wrapping (the products and their sum are exact in int32).
    public mutating func vpdpbusd(_ destination: ZMM, _ a: ZMM, _ b: ZMM) {
        evex(map: 2, pp: 1, w: 0, opcode: 0x50, length: 2, reg: destination.index, vvvv: a.index, rm: b.index)
    }

    /// `vpdpbusd dst, a, zmmword [memory]`.
    public mutating func vpdpbusd(_ destination: ZMM, _ a: ZMM, _ b: Memory) {
        evex(map: 2, pp: 1, w: 0, opcode: 0x50, length: 2, reg: destination.index, vvvv: a.index, b, tuple: 64)
    }

    /// `vextracti64x4 ymm, zmm, half`: `destination` = `source`'s 256-bit half `half` (0/1), upper bits zeroed.
    public mutating func vextracti64x4(_ destination: YMM, _ source: ZMM, half: UInt8) {
        precondition(half < 2, "vextracti64x4: half \(half) is not 0 or 1")
        evex(map: 3, pp: 1, w: 1, opcode: 0x3B, length: 2, reg: source.index, vvvv: 0, rm: destination.index)
        bytes.append(half)
    }

    /// `vmovdqu8 xmmword [memory]{mask}, xmm` (AVX512BW + VL): stores byte j of `source`'s low 128 bits where bit j
    /// of `mask` is set; the other bytes of memory are neither written nor accessed (no fault past a buffer's end).
    public mutating func vmovdqu8(_ destination: Memory, mask: OpMask, _ source: YMM) {
        evex(
            map: 1, pp: 3, w: 0, opcode: 0x7F, length: 0, reg: source.index, vvvv: 0, destination, tuple: 16,
            mask: mask.index)
    }

    /// `vmovdqu8 zmm{mask}, zmmword [memory]` (AVX512BW), `{z}` with `zeroing`: loads byte j where bit j of `mask`
    /// is set and keeps (or, zeroing, clears) the others; bytes whose bit is clear are not read (no fault outside a
    /// buffer).
    public mutating func vmovdqu8(_ destination: ZMM, mask: OpMask, zeroing: Bool, _ source: Memory) {
        evex(
            map: 1, pp: 3, w: 0, opcode: 0x6F, length: 2, reg: destination.index, vvvv: 0, source, tuple: 64,
            mask: mask.index, zeroing: zeroing)
    }

    /// `vmovdqu8 zmmword [memory]{mask}, zmm` (AVX512BW): stores byte j of `source` where bit j of `mask` is set;
    /// the other bytes of memory are neither written nor accessed.
    public mutating func vmovdqu8(_ destination: Memory, mask: OpMask, _ source: ZMM) {
        evex(
            map: 1, pp: 3, w: 0, opcode: 0x7F, length: 2, reg: source.index, vvvv: 0, destination, tuple: 64,
            mask: mask.index)
    }

    /// `vcvtdq2ps zmm, zmm`: int32 lanes to float (rounded to nearest even).
    public mutating func vcvtdq2ps(_ destination: ZMM, _ source: ZMM) {
        evex(map: 1, pp: 0, w: 0, opcode: 0x5B, length: 2, reg: destination.index, vvvv: 0, rm: source.index)
    }

    /// `vcvtps2dq zmm, zmm`: float lanes to int32, rounded to nearest even (the default MXCSR mode).
    public mutating func vcvtps2dq(_ destination: ZMM, _ source: ZMM) {
        evex(map: 1, pp: 1, w: 0, opcode: 0x5B, length: 2, reg: destination.index, vvvv: 0, rm: source.index)
    }

    /// `vmulps dst, a, zmmword [memory]`.
    public mutating func vmulps(_ destination: ZMM, _ a: ZMM, _ b: Memory) {
        evex(map: 1, pp: 0, w: 0, opcode: 0x59, length: 2, reg: destination.index, vvvv: a.index, b, tuple: 64)
    }

    /// `vminps dst, a, dword [memory]{1to16}`: the minimum with one float broadcast from memory.
    public mutating func vminps(_ destination: ZMM, _ a: ZMM, broadcast b: Memory) {
        evex(
            map: 1, pp: 0, w: 0, opcode: 0x5D, length: 2, reg: destination.index, vvvv: a.index, b, tuple: 4,
            broadcast: true)
    }

    /// `vpaddd dst, a, dword [memory]{1to16}`: adds one int32 broadcast from memory, wrapping.
    public mutating func vpaddd(_ destination: ZMM, _ a: ZMM, broadcast b: Memory) {
        evex(
            map: 1, pp: 1, w: 0, opcode: 0xFE, length: 2, reg: destination.index, vvvv: a.index, b, tuple: 4,
            broadcast: true)
    }

    /// `vpmaxsd dst, a, dword [memory]{1to16}`: signed int32 maximum with one value broadcast from memory.
    public mutating func vpmaxsd(_ destination: ZMM, _ a: ZMM, broadcast b: Memory) {
        evex(
            map: 2, pp: 1, w: 0, opcode: 0x3D, length: 2, reg: destination.index, vvvv: a.index, b, tuple: 4,
            broadcast: true)
    }

    /// `vpminsd dst, a, dword [memory]{1to16}`: signed int32 minimum with one value broadcast from memory.
    public mutating func vpminsd(_ destination: ZMM, _ a: ZMM, broadcast b: Memory) {
        evex(
            map: 2, pp: 1, w: 0, opcode: 0x39, length: 2, reg: destination.index, vvvv: a.index, b, tuple: 4,
            broadcast: true)
    }

    /// `vpmovsdb xmm, zmm`: the sixteen int32 lanes to bytes with signed saturation, in order, into `destination`'s
    /// low 128 bits (the rest of it zeroed).
    public mutating func vpmovsdb(_ destination: YMM, _ source: ZMM) {
        evex(map: 2, pp: 2, w: 0, opcode: 0x21, length: 2, reg: source.index, vvvv: 0, rm: destination.index)
    }

    /// `vpdpwssd dst, a, zmmword [memory]` (AVX-512 VNNI): int32 lane j of `dst` += `a[2j] · b[2j] + a[2j + 1] ·
    /// b[2j + 1]` over int16 lanes, wrapping.
    public mutating func vpdpwssd(_ destination: ZMM, _ a: ZMM, _ b: Memory) {
        evex(map: 2, pp: 1, w: 0, opcode: 0x52, length: 2, reg: destination.index, vvvv: a.index, b, tuple: 64)
    }

    /// `vpdpwssd dst, a, b` (AVX-512 VNNI) on registers: int32 lane j of `dst` += `a[2j] · b[2j] + a[2j + 1] ·
    /// b[2j + 1]` over int16 lanes, wrapping.
    public mutating func vpdpwssd(_ destination: ZMM, _ a: ZMM, _ b: ZMM) {
        evex(map: 2, pp: 1, w: 0, opcode: 0x52, length: 2, reg: destination.index, vvvv: a.index, rm: b.index)
    }

    /// `vpaddd dst, a, b` on 512-bit vectors: int32 lanes, wrapping.
    public mutating func vpaddd(_ destination: ZMM, _ a: ZMM, _ b: ZMM) {
        evex(map: 1, pp: 1, w: 0, opcode: 0xFE, length: 2, reg: destination.index, vvvv: a.index, rm: b.index)
    }

    /// `vmovdqu32 zmmword [memory], zmm`.
    public mutating func vmovdqu32(_ destination: Memory, _ source: ZMM) {
        evex(map: 1, pp: 2, w: 0, opcode: 0x7F, length: 2, reg: source.index, vvvv: 0, destination, tuple: 64)
    }

    /// `vmovups zmm, zmmword [memory]`.
    public mutating func vmovups(_ destination: ZMM, _ source: Memory) {
        evex(map: 1, pp: 0, w: 0, opcode: 0x10, length: 2, reg: destination.index, vvvv: 0, source, tuple: 64)
    }

    /// `vmovups zmm{mask}{z}, zmmword [memory]`: loads the lanes whose `mask` bit is set and zeroes the others;
    /// masked lanes are not read (no fault past a buffer's end).
    public mutating func vmovups(_ destination: ZMM, mask: OpMask, _ source: Memory) {
        evex(
            map: 1, pp: 0, w: 0, opcode: 0x10, length: 2, reg: destination.index, vvvv: 0, source, tuple: 64,
            mask: mask.index, zeroing: true)
    }

    /// `vmovups zmmword [memory], zmm`.
    public mutating func vmovups(_ destination: Memory, _ source: ZMM) {
        evex(map: 1, pp: 0, w: 0, opcode: 0x11, length: 2, reg: source.index, vvvv: 0, destination, tuple: 64)
    }

    /// `vmovups zmmword [memory]{mask}, zmm`: stores the lanes whose `mask` bit is set; the others are neither
    /// written nor accessed.
    public mutating func vmovups(_ destination: Memory, mask: OpMask, _ source: ZMM) {
        evex(
            map: 1, pp: 0, w: 0, opcode: 0x11, length: 2, reg: source.index, vvvv: 0, destination, tuple: 64,
            mask: mask.index)
    }

    /// `vbroadcastss zmm, dword [memory]`: one float to all sixteen lanes.
    public mutating func vbroadcastss(_ destination: ZMM, _ source: Memory) {
        evex(map: 2, pp: 1, w: 0, opcode: 0x18, length: 2, reg: destination.index, vvvv: 0, source, tuple: 4)
    }

    /// `vfmadd231ps dst, a, b` on 512-bit vectors: `dst = a · b + dst`, rounded once.
    public mutating func vfmadd231ps(_ destination: ZMM, _ a: ZMM, _ b: ZMM) {
        evex(map: 2, pp: 1, w: 0, opcode: 0xB8, length: 2, reg: destination.index, vvvv: a.index, rm: b.index)
    }

    /// `vfmadd231ps dst, a, zmmword [memory]`.
    public mutating func vfmadd231ps(_ destination: ZMM, _ a: ZMM, _ b: Memory) {
        evex(map: 2, pp: 1, w: 0, opcode: 0xB8, length: 2, reg: destination.index, vvvv: a.index, b, tuple: 64)
    }

    /// `vmaxps dst, a, b` on 512-bit vectors (where either is NaN, or both are zeros, the result is `b`).
    public mutating func vmaxps(_ destination: ZMM, _ a: ZMM, _ b: ZMM) {
        evex(map: 1, pp: 0, w: 0, opcode: 0x5F, length: 2, reg: destination.index, vvvv: a.index, rm: b.index)
    }

    /// `vminps dst, a, b` on 512-bit vectors (where either is NaN, or both are zeros, the result is `b`).
    public mutating func vminps(_ destination: ZMM, _ a: ZMM, _ b: ZMM) {
        evex(map: 1, pp: 0, w: 0, opcode: 0x5D, length: 2, reg: destination.index, vvvv: a.index, rm: b.index)
    }

    /// `vaddps dst, a, b` on 512-bit vectors.
    public mutating func vaddps(_ destination: ZMM, _ a: ZMM, _ b: ZMM) {
        evex(map: 1, pp: 0, w: 0, opcode: 0x58, length: 2, reg: destination.index, vvvv: a.index, rm: b.index)
    }

    /// `vaddps dst, a, zmmword [memory]`.
    public mutating func vaddps(_ destination: ZMM, _ a: ZMM, _ b: Memory) {
        evex(map: 1, pp: 0, w: 0, opcode: 0x58, length: 2, reg: destination.index, vvvv: a.index, b, tuple: 64)
    }

    /// `vpmovsxbw zmm, ymmword [memory]`: 32 int8 sign-extended to int16.
    public mutating func vpmovsxbw(_ destination: ZMM, _ source: Memory) {
        evex(map: 2, pp: 1, w: 0, opcode: 0x20, length: 2, reg: destination.index, vvvv: 0, source, tuple: 32)
    }

    /// `vpmovzxbw zmm, ymmword [memory]`: 32 uint8 zero-extended to int16.
    public mutating func vpmovzxbw(_ destination: ZMM, _ source: Memory) {
        evex(map: 2, pp: 1, w: 0, opcode: 0x30, length: 2, reg: destination.index, vvvv: 0, source, tuple: 32)
    }

    /// `vpxord dst, a, b` on 512-bit vectors.
    public mutating func vpxord(_ destination: ZMM, _ a: ZMM, _ b: ZMM) {
        evex(map: 1, pp: 1, w: 0, opcode: 0xEF, length: 2, reg: destination.index, vvvv: a.index, rm: b.index)
    }

    /// `vpmovsxbd zmm, xmmword [memory]`: 16 int8 sign-extended to int32.
    public mutating func vpmovsxbd(_ destination: ZMM, _ source: Memory) {
        evex(map: 2, pp: 1, w: 0, opcode: 0x21, length: 2, reg: destination.index, vvvv: 0, source, tuple: 16)
    }

    /// `vpmovzxbd zmm, xmmword [memory]`: 16 uint8 zero-extended to int32.
    public mutating func vpmovzxbd(_ destination: ZMM, _ source: Memory) {
        evex(map: 2, pp: 1, w: 0, opcode: 0x31, length: 2, reg: destination.index, vvvv: 0, source, tuple: 16)
    }

    /// `vpmulld dst, a, dword [memory]{1to16}`: the low 32 bits of each lane's product with one broadcast int32.
    public mutating func vpmulld(_ destination: ZMM, _ a: ZMM, broadcast b: Memory) {
        evex(
            map: 2, pp: 1, w: 0, opcode: 0x40, length: 2, reg: destination.index, vvvv: a.index, b, tuple: 4,
            broadcast: true)
    }

    /// `vpsrad dst, src, count` on 512-bit vectors: int32 lanes shifted right arithmetically.
    public mutating func vpsrad(_ destination: ZMM, _ source: ZMM, _ count: UInt8) {
        evex(map: 1, pp: 1, w: 0, opcode: 0x72, length: 2, reg: 4, vvvv: destination.index, rm: source.index)
        bytes.append(count)
    }

    /// `vpmovdb xmm, zmm`: the low byte of each of the sixteen int32 lanes, in order, into `destination`'s low 128
    /// bits (the rest of it zeroed).
    public mutating func vpmovdb(_ destination: YMM, _ source: ZMM) {
        evex(map: 2, pp: 2, w: 0, opcode: 0x31, length: 2, reg: source.index, vvvv: 0, rm: destination.index)
    }

    /// `vpsubw dst, a, b`: int16 lanes `a − b`, wrapping.
    public mutating func vpsubw(_ destination: ZMM, _ a: ZMM, _ b: ZMM) {
        evex(map: 1, pp: 1, w: 0, opcode: 0xF9, length: 2, reg: destination.index, vvvv: a.index, rm: b.index)
    }

    /// `vmovdqa64 dst, src`: a register copy.
    public mutating func vmovdqa64(_ destination: ZMM, _ source: ZMM) {
        evex(map: 1, pp: 1, w: 1, opcode: 0x6F, length: 2, reg: destination.index, vvvv: 0, rm: source.index)
    }

    /// `vpermt2w table, indices, other` (AVX512BW): int16 lane j of `table` becomes lane `indices[j] & 31` of
    /// `table` (before the write) when bit 5 of that index is clear, of `other` when it is set.
    public mutating func vpermt2w(_ table: ZMM, _ indices: ZMM, _ other: ZMM) {
        evex(map: 2, pp: 1, w: 1, opcode: 0x7D, length: 2, reg: table.index, vvvv: indices.index, rm: other.index)
    }

    /// `kmovw k, r32`: the opmask = the low 16 bits of `source`.
    public mutating func kmovw(_ destination: OpMask, _ source: GPR) {
        let rm = source.rawValue
        if rm < 8 {
            bytes += [0xC5, 0xF8]
        } else {
            bytes += [0xC4, 0xC1, 0x78]
        }
        bytes += [0x92, 0xC0 | (destination.index << 3) | (rm & 7)]
    }

    /// `kmovq k, r64` (AVX512BW): the opmask = `source`.
    public mutating func kmovq(_ destination: OpMask, _ source: GPR) {
        let rm = source.rawValue
        // VEX3: C4, R X B m-mmmm (map 0F, B inverted for r8–r15), W vvvv L pp (W1, vvvv unused, F2).
        bytes += [0xC4, rm < 8 ? 0xE1 : 0xC1, 0xFB, 0x92, 0xC0 | (destination.index << 3) | (rm & 7)]
    }

    /// The 4-byte EVEX prefix: 62, then R X B R' 0 0 m m, W vvvv 1 p p, z L'L b V' a a a, with R, X, B, R', vvvv and
    /// V' stored inverted. `length` 0/1/2 is 128/256/512 bits; without a `vvvv` operand its field is 1111 (and V'
    /// 1), i.e. register 0 before inversion.
    private mutating func evexPrefix(
        map: UInt8, pp: UInt8, w: UInt8, length: UInt8, r: UInt8, x: UInt8, b: UInt8, vvvv: UInt8, mask: UInt8,
        zeroing: Bool = false
    ) {
        let p0 = ((~r >> 3 & 1) << 7) | ((~x & 1) << 6) | ((~b & 1) << 5) | ((~r >> 4 & 1) << 4) | map
        let p1 = (w << 7) | ((~vvvv & 0xF) << 3) | 0x04 | pp
        let p2 = (zeroing ? 0x80 : 0) | (length << 5) | ((~vvvv >> 4 & 1) << 3) | mask
        bytes += [0x62, p0, p1, p2]
    }

    /// EVEX instruction with a register-direct operand (`rm` 0…31: bit 3 in B, bit 4 in X).
    private mutating func evex(
        map: UInt8, pp: UInt8, w: UInt8, opcode: UInt8, length: UInt8, reg: UInt8, vvvv: UInt8, rm: UInt8
    ) {
        evexPrefix(map: map, pp: pp, w: w, length: length, r: reg, x: rm >> 4, b: rm >> 3, vvvv: vvvv, mask: 0)
        bytes.append(opcode)
        bytes.append(0xC0 | ((reg & 7) << 3) | (rm & 7))
    }

    /// EVEX instruction with a memory operand; an 8-bit displacement counts in units of `tuple` bytes (disp8·N).
    /// `broadcast` sets EVEX.b: the operand is one element repeated to every lane (`{1toN}`); `zeroing` sets EVEX.z:
    /// lanes a `mask` leaves out are zeroed rather than kept.
    private mutating func evex(
        map: UInt8, pp: UInt8, w: UInt8, opcode: UInt8, length: UInt8, reg: UInt8, vvvv: UInt8, _ memory: Memory,
        tuple: Int32, mask: UInt8 = 0, broadcast: Bool = false, zeroing: Bool = false
    ) {
        evexPrefix(
            map: map, pp: pp, w: w, length: length, r: reg, x: (memory.index?.rawValue ?? 0) >> 3,
            b: memory.base.rawValue >> 3, vvvv: vvvv, mask: mask | (broadcast ? 0x10 : 0), zeroing: zeroing)
        bytes.append(opcode)
        modRM(reg: reg, memory, displacementScale: tuple)
    }
}
