import Foundation
import PureVisionKernels
import PureVisionTestSupport
import Testing

/// X86Assembler against GNU `as`: every instruction in `Fixtures/x86_encodings.json` (made by
/// `tools/make_x86_encoding_goldens.py`) is parsed here, emitted through the assembler and compared byte for byte.
@Suite struct X86AssemblerTests {
    @Test func everyInstructionMatchesGNUAs() throws {
        let bytes = try Fixtures.bytes(atPath: Fixtures.testFile("PureVisionKernelsTests/Fixtures/x86_encodings.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let table = try #require(root["instructions"] as? [String: String])
        #expect(table.count > 1000)
        var mismatches: [String] = []
        for (text, expected) in table.sorted(by: { $0.key < $1.key }) {
            var assembler = X86Assembler()
            try emit(text, into: &assembler)
            let actual = assembler.bytes.map { String(format: "%02x", $0) }.joined()
            if actual != expected { mismatches.append("\(text): \(actual), as gives \(expected)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(5))")
    }

    @Test(.enabled(if: GeneratedCode.runs, GeneratedCode.skipComment)) func jumpsResolveBackwardAndForward() throws {
        // rax = 0; rcx = 5; loop: rax += 3; dec rcx; jnz loop; jmp done; rax = 99; done: stored to [rdi].
        var a = X86Assembler()
        let loop = a.makeLabel()
        let done = a.makeLabel()
        a.mov(.rax, 0)
        a.mov(.rcx, 5)
        a.bind(loop)
        a.add(.rax, 3)
        a.dec(.rcx)
        a.jnz(loop)
        a.jmp(done)
        a.mov(.rax, 99)
        a.bind(done)
        a.storeQuadword(.rax, at: Memory(.rdi))
        a.ret()
        let code = try ExecutableCode(a.finish())
        var result = 0
        withUnsafeMutablePointer(to: &result) { code.entry(Int(bitPattern: $0), 0, 0, 0, 0, 0) }
        #expect(result == 15)
    }

    @Test func unboundLabelIsAnError() {
        var a = X86Assembler()
        let nowhere = a.makeLabel()
        a.jmp(nowhere)
        #expect(throws: MachineCodeError.unboundLabel(0)) { try a.finish() }
    }

    @Test(.enabled(if: GeneratedCode.runs, GeneratedCode.skipComment)) func fusedMultiplyAddRuns() throws {
        // out[0..<8] = a · b + c, with one rounding.
        var asm = X86Assembler()
        asm.vmovups(YMM(0), Memory(.rdx))
        asm.vmovups(YMM(1), Memory(.rdi))
        asm.vfmadd231ps(YMM(0), YMM(1), Memory(.rsi))
        asm.vmovups(Memory(.rcx), YMM(0))
        asm.vzeroupper()
        asm.ret()
        let code = try ExecutableCode(asm.finish())
        let a: [Float] = [1, 2, 3, 4, 5, 6, 7, 1 + 0x1p-23]
        let b: [Float] = [2, 3, 4, 5, 6, 7, 8, 1 - 0x1p-23]
        let c: [Float] = [0.5, -1, 0, 1, 2, 3, 4, -1]
        var out = [Float](repeating: 0, count: 8)
        a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                c.withUnsafeBufferPointer { pc in
                    out.withUnsafeMutableBufferPointer { po in
                        code.entry(
                            Int(bitPattern: pa.baseAddress), Int(bitPattern: pb.baseAddress),
                            Int(bitPattern: pc.baseAddress), Int(bitPattern: po.baseAddress), 0, 0)
                    }
                }
            }
        }
        let expected = (0..<8).map { c[$0].addingProduct(a[$0], b[$0]) }
        #expect(out == expected)
        #expect(out[7] == -0x1p-46)  // (1 + u)(1 - u) - 1 = -u², lost by a separate multiply and add
    }

    // MARK: A parser for the golden's Intel syntax

    private enum Operand {
        case gpr(GPR)
        case ymm(YMM)
        case memory(Memory)
        case immediate(Int)
        /// The low 128 bits of a vector register.
        case xmm(YMM)
        case zmm(ZMM)
        case opmask(OpMask)
        /// A memory operand with a write mask, `[…]{kN}`.
        case maskedMemory(Memory, OpMask)
        /// A 32-bit general-purpose register (`eax`, `r8d`).
        case gpr32(GPR)
        /// A dword memory operand broadcast to every lane, `[…]{1to16}`.
        case broadcastMemory(Memory)
        /// A zmm destination with a zeroing write mask, `zmmN{kN}{z}`.
        case maskedZMM(ZMM, OpMask)
        /// A zmm destination with a merging write mask, `zmmN{kN}`.
        case mergeMaskedZMM(ZMM, OpMask)
    }

    private func emit(_ text: String, into a: inout X86Assembler) throws {
        let space = text.firstIndex(of: " ") ?? text.endIndex
        let mnemonic = String(text[..<space])
        let operands = try text[space...].split(separator: ",").map { try operand($0) }
        switch (mnemonic, operands.count) {
        case ("vzeroupper", 0): a.vzeroupper()
        case ("ret", 0): a.ret()
        case ("pause", 0): a.pause()
        default: break
        }
        if operands.isEmpty { return }
        if mnemonic == "vpblendd", operands.count == 4, case .ymm(let d) = operands[0], case .ymm(let x) = operands[1],
            case .ymm(let y) = operands[2], case .immediate(let mask) = operands[3]
        {
            a.vpblendd(d, x, y, mask: UInt8(mask))
            return
        }
        switch (mnemonic, operands[0], operands.count > 1 ? operands[1] : nil, operands.count > 2 ? operands[2] : nil) {
        case ("vmovups", .ymm(let d), .memory(let m)?, nil): a.vmovups(d, m)
        case ("vmovups", .memory(let m), .ymm(let s)?, nil): a.vmovups(m, s)
        case ("vbroadcastss", .ymm(let d), .memory(let m)?, nil): a.vbroadcastss(d, m)
        case ("vfmadd231ps", .ymm(let d), .ymm(let x)?, .ymm(let y)?): a.vfmadd231ps(d, x, y)
        case ("vfmadd231ps", .ymm(let d), .ymm(let x)?, .memory(let m)?): a.vfmadd231ps(d, x, m)
        case ("vaddps", .ymm(let d), .ymm(let x)?, .ymm(let y)?): a.vaddps(d, x, y)
        case ("vaddps", .ymm(let d), .ymm(let x)?, .memory(let m)?): a.vaddps(d, x, m)
        case ("vmulps", .ymm(let d), .ymm(let x)?, .ymm(let y)?): a.vmulps(d, x, y)
        case ("vmulps", .ymm(let d), .ymm(let x)?, .memory(let m)?): a.vmulps(d, x, m)
        case ("vminps", .ymm(let d), .ymm(let x)?, .ymm(let y)?): a.vminps(d, x, y)
        case ("vminps", .ymm(let d), .ymm(let x)?, .memory(let m)?): a.vminps(d, x, m)
        case ("vcvtdq2ps", .ymm(let d), .ymm(let x)?, nil): a.vcvtdq2ps(d, x)
        case ("vcvtps2dq", .ymm(let d), .ymm(let x)?, nil): a.vcvtps2dq(d, x)
        case ("vmaxps", .ymm(let d), .ymm(let x)?, .ymm(let y)?): a.vmaxps(d, x, y)
        case ("vxorps", .ymm(let d), .ymm(let x)?, .ymm(let y)?): a.vxorps(d, x, y)
        case ("push", .gpr(let r), nil, nil): a.push(r)
        case ("pop", .gpr(let r), nil, nil): a.pop(r)
        case ("dec", .gpr(let r), nil, nil): a.dec(r)
        case ("add", .gpr(let r), .immediate(let v)?, nil): a.add(r, Int32(v))
        case ("sub", .gpr(let r), .immediate(let v)?, nil): a.sub(r, Int32(v))
        case ("cmp", .gpr(let r), .immediate(let v)?, nil): a.cmp(r, Int32(v))
        case ("mov", .gpr(let r), .immediate(let v)?, nil), ("movabs", .gpr(let r), .immediate(let v)?, nil):
            a.mov(r, v)
        case ("mov", .gpr(let d), .gpr(let s)?, nil): a.mov(d, s)
        case ("add", .gpr(let d), .gpr(let s)?, nil): a.add(d, s)
        case ("sub", .gpr(let d), .gpr(let s)?, nil): a.sub(d, s)
        case ("cmp", .gpr(let d), .gpr(let s)?, nil): a.cmp(d, s)
        case ("test", .gpr(let d), .gpr(let s)?, nil): a.test(d, s)
        case ("lea", .gpr(let d), .memory(let m)?, nil): a.lea(d, m)
        case ("vmovups", .memory(let m), .xmm(let s)?, nil): a.vmovupsLow128(m, s)
        case ("vmovlps", .memory(let m), .xmm(let s)?, nil): a.vmovlps(m, s)
        case ("vextractps", .memory(let m), .xmm(let s)?, .immediate(let lane)?): a.vextractps(m, s, lane: UInt8(lane))
        case ("vextractf128", .xmm(let d), .ymm(let s)?, .immediate(let half)?): a.vextractf128(d, s, half: UInt8(half))
        case ("vmaskmovps", .ymm(let d), .ymm(let mask)?, .memory(let m)?): a.vmaskmovps(d, mask: mask, m)
        case ("vpbroadcastd", .ymm(let d), .memory(let m)?, nil): a.vpbroadcastd(d, m)
        case ("vpmaddwd", .ymm(let d), .ymm(let x)?, .ymm(let y)?): a.vpmaddwd(d, x, y)
        case ("vpmaddwd", .ymm(let d), .ymm(let x)?, .memory(let m)?): a.vpmaddwd(d, x, m)
        case ("vpaddd", .ymm(let d), .ymm(let x)?, .ymm(let y)?): a.vpaddd(d, x, y)
        case ("vpaddd", .ymm(let d), .ymm(let x)?, .memory(let m)?): a.vpaddd(d, x, m)
        case ("vpsubd", .ymm(let d), .ymm(let x)?, .ymm(let y)?): a.vpsubd(d, x, y)
        case ("vpcmpgtd", .ymm(let d), .ymm(let x)?, .ymm(let y)?): a.vpcmpgtd(d, x, y)
        case ("vpackssdw", .ymm(let d), .ymm(let x)?, .ymm(let y)?): a.vpackssdw(d, x, y)
        case ("vpaddq", .ymm(let d), .ymm(let x)?, .memory(let m)?): a.vpaddq(d, x, m)
        case ("vpand", .ymm(let d), .ymm(let x)?, .memory(let m)?): a.vpand(d, x, m)
        case ("vpmuldq", .ymm(let d), .ymm(let x)?, .memory(let m)?): a.vpmuldq(d, x, m)
        case ("vpsravd", .ymm(let d), .ymm(let x)?, .memory(let m)?): a.vpsravd(d, x, m)
        case ("vpmaxsd", .ymm(let d), .ymm(let x)?, .memory(let m)?): a.vpmaxsd(d, x, m)
        case ("vpminsd", .ymm(let d), .ymm(let x)?, .memory(let m)?): a.vpminsd(d, x, m)
        case ("vpxor", .xmm(let d), .xmm(let x)?, .memory(let m)?): a.vpxor128(d, x, m)
        case ("vpacksswb", .xmm(let d), .xmm(let x)?, .xmm(let y)?): a.vpacksswb128(d, x, y)
        case ("vpunpckldq", .ymm(let d), .ymm(let x)?, .ymm(let y)?): a.vpunpckldq(d, x, y)
        case ("vpunpckhdq", .ymm(let d), .ymm(let x)?, .ymm(let y)?): a.vpunpckhdq(d, x, y)
        case ("vpsrad", .ymm(let d), .ymm(let s)?, .immediate(let n)?): a.vpsrad(d, s, UInt8(n))
        case ("vpsrlq", .ymm(let d), .ymm(let s)?, .immediate(let n)?): a.vpsrlq(d, s, UInt8(n))
        case ("vpsllq", .ymm(let d), .ymm(let s)?, .immediate(let n)?): a.vpsllq(d, s, UInt8(n))
        case ("vpermq", .ymm(let d), .ymm(let s)?, .immediate(let order)?): a.vpermq(d, s, order: UInt8(order))
        case ("vextracti128", .xmm(let d), .ymm(let s)?, .immediate(let half)?): a.vextracti128(d, s, half: UInt8(half))
        case ("vmovdqu32", .zmm(let d), .memory(let m)?, nil): a.vmovdqu32(d, m)
        case ("vpbroadcastd", .zmm(let d), .memory(let m)?, nil): a.vpbroadcastd(d, m)
        case ("vpdpbusd", .zmm(let d), .zmm(let x)?, .zmm(let y)?): a.vpdpbusd(d, x, y)
        case ("vpdpbusd", .zmm(let d), .zmm(let x)?, .memory(let m)?): a.vpdpbusd(d, x, m)
        case ("vextracti64x4", .ymm(let d), .zmm(let s)?, .immediate(let half)?):
            a.vextracti64x4(d, s, half: UInt8(half))
        case ("vmovdqu8", .maskedMemory(let m, let k), .xmm(let s)?, nil): a.vmovdqu8(m, mask: k, s)
        case ("kmovw", .opmask(let k), .gpr32(let r)?, nil): a.kmovw(k, r)
        case ("kmovq", .opmask(let k), .gpr(let r)?, nil): a.kmovq(k, r)
        case ("vmovdqu8", .maskedZMM(let d, let k), .memory(let m)?, nil): a.vmovdqu8(d, mask: k, zeroing: true, m)
        case ("vmovdqu8", .mergeMaskedZMM(let d, let k), .memory(let m)?, nil):
            a.vmovdqu8(d, mask: k, zeroing: false, m)
        case ("vmovdqu8", .maskedMemory(let m, let k), .zmm(let s)?, nil): a.vmovdqu8(m, mask: k, s)
        case ("vmulps", .zmm(let d), .zmm(let x)?, .memory(let m)?): a.vmulps(d, x, m)
        case ("vminps", .zmm(let d), .zmm(let x)?, .broadcastMemory(let m)?): a.vminps(d, x, broadcast: m)
        case ("vpaddd", .zmm(let d), .zmm(let x)?, .broadcastMemory(let m)?): a.vpaddd(d, x, broadcast: m)
        case ("vpmaxsd", .zmm(let d), .zmm(let x)?, .broadcastMemory(let m)?): a.vpmaxsd(d, x, broadcast: m)
        case ("vpminsd", .zmm(let d), .zmm(let x)?, .broadcastMemory(let m)?): a.vpminsd(d, x, broadcast: m)
        case ("vpdpwssd", .zmm(let d), .zmm(let x)?, .memory(let m)?): a.vpdpwssd(d, x, m)
        case ("vpdpwssd", .zmm(let d), .zmm(let x)?, .zmm(let y)?): a.vpdpwssd(d, x, y)
        case ("vpaddd", .zmm(let d), .zmm(let x)?, .zmm(let y)?): a.vpaddd(d, x, y)
        case ("vpmovsxbw", .zmm(let d), .memory(let m)?, nil): a.vpmovsxbw(d, m)
        case ("vpmovzxbw", .zmm(let d), .memory(let m)?, nil): a.vpmovzxbw(d, m)
        case ("vpsubw", .zmm(let d), .zmm(let x)?, .zmm(let y)?): a.vpsubw(d, x, y)
        case ("vpxord", .zmm(let d), .zmm(let x)?, .zmm(let y)?): a.vpxord(d, x, y)
        case ("vpmovsxbd", .zmm(let d), .memory(let m)?, nil): a.vpmovsxbd(d, m)
        case ("vpmovzxbd", .zmm(let d), .memory(let m)?, nil): a.vpmovzxbd(d, m)
        case ("vpmulld", .zmm(let d), .zmm(let x)?, .broadcastMemory(let m)?): a.vpmulld(d, x, broadcast: m)
        case ("vpsrad", .zmm(let d), .zmm(let s)?, .immediate(let n)?): a.vpsrad(d, s, UInt8(n))
        case ("vpmovdb", .xmm(let d), .zmm(let x)?, nil): a.vpmovdb(d, x)
        case ("vmovdqa64", .zmm(let d), .zmm(let x)?, nil): a.vmovdqa64(d, x)
        case ("vpermt2w", .zmm(let d), .zmm(let x)?, .zmm(let y)?): a.vpermt2w(d, x, y)
        case ("vmovups", .zmm(let d), .memory(let m)?, nil): a.vmovups(d, m)
        case ("vmovups", .maskedZMM(let d, let k), .memory(let m)?, nil): a.vmovups(d, mask: k, m)
        case ("vmovups", .memory(let m), .zmm(let s)?, nil): a.vmovups(m, s)
        case ("vmovups", .maskedMemory(let m, let k), .zmm(let s)?, nil): a.vmovups(m, mask: k, s)
        case ("vbroadcastss", .zmm(let d), .memory(let m)?, nil): a.vbroadcastss(d, m)
        case ("vfmadd231ps", .zmm(let d), .zmm(let x)?, .zmm(let y)?): a.vfmadd231ps(d, x, y)
        case ("vfmadd231ps", .zmm(let d), .zmm(let x)?, .memory(let m)?): a.vfmadd231ps(d, x, m)
        case ("vmaxps", .zmm(let d), .zmm(let x)?, .zmm(let y)?): a.vmaxps(d, x, y)
        case ("vminps", .zmm(let d), .zmm(let x)?, .zmm(let y)?): a.vminps(d, x, y)
        case ("vaddps", .zmm(let d), .zmm(let x)?, .zmm(let y)?): a.vaddps(d, x, y)
        case ("vaddps", .zmm(let d), .zmm(let x)?, .memory(let m)?): a.vaddps(d, x, m)
        case ("vmovdqu32", .memory(let m), .zmm(let s)?, nil): a.vmovdqu32(m, s)
        case ("vcvtdq2ps", .zmm(let d), .zmm(let x)?, nil): a.vcvtdq2ps(d, x)
        case ("vcvtps2dq", .zmm(let d), .zmm(let x)?, nil): a.vcvtps2dq(d, x)
        case ("vpmovsdb", .xmm(let d), .zmm(let x)?, nil): a.vpmovsdb(d, x)
        case ("mov", .gpr(let d), .memory(let m)?, nil): a.mov(d, m)
        case ("mov", .memory(let m), .gpr(let s)?, nil): a.storeQuadword(s, at: m)
        default: throw ParseError(text: text)
        }
    }

    private struct ParseError: Error { let text: String }

    private func operand(_ raw: Substring) throws -> Operand {
        var text = raw.trimmingCharacters(in: .whitespaces)
        for size in ["ZMMWORD PTR ", "YMMWORD PTR ", "XMMWORD PTR ", "DWORD PTR ", "QWORD PTR "]
        where text.hasPrefix(size) {
            text.removeFirst(size.count)
        }
        if text.hasPrefix("zmm"), text.hasSuffix("}{z}"), let brace = text.firstIndex(of: "{"),
            let index = Int(text[text.index(text.startIndex, offsetBy: 3)..<brace]),
            let mask = Int(text[brace...].dropFirst(2).dropLast(4))
        {
            return .maskedZMM(ZMM(index), OpMask(mask))
        }
        if text.hasPrefix("zmm"), text.hasSuffix("}"), let brace = text.firstIndex(of: "{"),
            let index = Int(text[text.index(text.startIndex, offsetBy: 3)..<brace]),
            let mask = Int(text[brace...].dropFirst(2).dropLast())
        {
            return .mergeMaskedZMM(ZMM(index), OpMask(mask))
        }
        if text.hasSuffix("{1to16}"), case .memory(let memory) = try operand(Substring(text.dropLast(7))) {
            return .broadcastMemory(memory)
        }
        if text.hasSuffix("}"), let brace = text.lastIndex(of: "{"), text[brace...].hasPrefix("{k"),
            let index = Int(text[brace...].dropFirst(2).dropLast()),
            case .memory(let memory) = try operand(Substring(text[..<brace]))
        {
            return .maskedMemory(memory, OpMask(index))
        }
        if text.hasPrefix("zmm"), let index = Int(text.dropFirst(3)) { return .zmm(ZMM(index)) }
        if text.hasPrefix("k"), text.count == 2, let index = Int(text.dropFirst(1)) { return .opmask(OpMask(index)) }
        let names32 = ["eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi"] + (8..<16).map { "r\($0)d" }
        if let index = names32.firstIndex(of: text), let register = GPR(rawValue: UInt8(index)) {
            return .gpr32(register)
        }
        if text.hasPrefix("ymm"), let index = Int(text.dropFirst(3)) { return .ymm(YMM(index)) }
        if text.hasPrefix("xmm"), let index = Int(text.dropFirst(3)) { return .xmm(YMM(index)) }
        if let register = GPR.allCases.first(where: { $0.name == text }) { return .gpr(register) }
        if let value = Int(text) { return .immediate(value) }
        guard text.hasPrefix("["), text.hasSuffix("]") else { throw ParseError(text: text) }
        // [base(+index*scale)?(±disp)?]
        var body = Substring(text.dropFirst().dropLast())
        var displacement: Int32 = 0
        if let sign = body.lastIndex(where: { $0 == "+" || $0 == "-" }), let value = Int32(body[sign...]) {
            displacement = value
            body = body[..<sign]
        }
        let parts = body.split(separator: "+")
        guard let base = GPR.allCases.first(where: { $0.name == parts[0] }) else { throw ParseError(text: text) }
        if parts.count == 1 { return .memory(Memory(base, displacement)) }
        let indexParts = parts[1].split(separator: "*")
        guard let index = GPR.allCases.first(where: { $0.name == indexParts[0] }), let scale = Int(indexParts[1])
        else { throw ParseError(text: text) }
        return .memory(Memory(base, index: index, scale: scale, displacement))
    }
}
