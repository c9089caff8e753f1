#!/usr/bin/env python3
"""Encodings of the x86-64 instructions PureVision's generated kernels use, as GNU `as` assembles them.

Writes Tests/PureVisionKernelsTests/Fixtures/x86_encodings.json: {"as": version, "instructions": {text: hex}}.
PureVisionKernelsTests/X86AssemblerTests emits the same instructions through X86Assembler and compares byte for byte.
Needs binutils (`as`, `objdump`); no Python packages. Run from the repository root.
"""
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

GPRS = ["rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
        "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"]


def memory_operands():
    """Every base register with displacements 0, 8-bit and 32-bit; and index forms with each scale."""
    out = []
    for base in GPRS:
        for disp in (0, 64, -4, 4096):
            out.append(f"[{base}{disp:+d}]" if disp else f"[{base}]")
    for base, index in (("rax", "rcx"), ("r8", "r10"), ("rsp", "r11"), ("r13", "rdx"), ("r12", "r15"),
                        ("rbp", "r9")):
        for scale in (1, 2, 4, 8):
            for disp in (0, 32, 1024):
                out.append(f"[{base}+{index}*{scale}{disp:+d}]" if disp else f"[{base}+{index}*{scale}]")
    return out


def instruction_list():
    mems = memory_operands()
    lines = []
    for i, m in enumerate(mems):
        y = f"ymm{i % 16}"
        lines += [f"vmovups {y}, YMMWORD PTR {m}", f"vmovups YMMWORD PTR {m}, {y}",
                  f"vbroadcastss {y}, DWORD PTR {m}"]
    for d, a, b in ((0, 1, 2), (8, 1, 2), (0, 9, 2), (0, 1, 10), (15, 14, 13), (3, 12, 7)):
        for op in ("vfmadd231ps", "vaddps", "vmulps", "vminps", "vmaxps", "vxorps"):
            lines.append(f"{op} ymm{d}, ymm{a}, ymm{b}")
        for m in ("[rdi]", "[r9+64]", "[rsi+rax*4+4096]", "[r12-32]"):
            for op in ("vfmadd231ps", "vaddps", "vmulps", "vminps"):
                lines.append(f"{op} ymm{d}, ymm{a}, YMMWORD PTR {m}")
        lines += [f"vcvtdq2ps ymm{d}, ymm{b}", f"vcvtps2dq ymm{d}, ymm{b}"]
    lines.append("vzeroupper")
    for r in GPRS:
        lines += [f"push {r}", f"pop {r}", f"dec {r}"]
        for imm in (1, -1, 127, 128, -129, 100000):
            lines += [f"add {r}, {imm}", f"sub {r}, {imm}", f"cmp {r}, {imm}"]
        for imm in (0, 7, -7, 2147483647, -2147483648):
            lines.append(f"mov {r}, {imm}")
        lines.append(f"movabs {r}, 81985529216486895")
    for a, b in (("rax", "rcx"), ("r8", "rdx"), ("rsi", "r15"), ("r12", "r13")):
        for op in ("mov", "add", "sub", "cmp", "test"):
            lines.append(f"{op} {a}, {b}")
    for m in mems[::3]:
        lines += [f"lea r10, {m}", f"mov rcx, QWORD PTR {m}"]
    lines.append("ret")
    lines.append("pause")
    for m in mems[::3]:
        lines.append(f"mov QWORD PTR {m}, rcx")
    # Row tails: partial stores of a vector's low lanes, the upper half extracted, masked loads.
    for i, m in enumerate(mems[::2]):
        x, y = f"xmm{i % 16}", f"ymm{(i + 5) % 16}"
        lines += [f"vmovups XMMWORD PTR {m}, {x}", f"vmovlps QWORD PTR {m}, {x}",
                  f"vextractps DWORD PTR {m}, {x}, {i % 4}", f"vmaskmovps {y}, ymm{(i + 9) % 16}, YMMWORD PTR {m}"]
    for d, s in ((0, 1), (13, 2), (3, 12), (15, 14)):
        for half in (0, 1):
            lines.append(f"vextractf128 xmm{d}, ymm{s}, {half}")
    # The int8 GEMM: int16 multiply-adds, int32/int64 arithmetic for requantization, packing to bytes.
    for i, m in enumerate(mems[::2]):
        y, z = f"ymm{i % 16}", f"ymm{(i + 7) % 16}"
        lines += [f"vpbroadcastd {y}, DWORD PTR {m}", f"vpmaddwd {y}, {z}, YMMWORD PTR {m}",
                  f"vpaddd {y}, {z}, YMMWORD PTR {m}", f"vpaddq {y}, {z}, YMMWORD PTR {m}",
                  f"vpand {y}, {z}, YMMWORD PTR {m}", f"vpmuldq {y}, {z}, YMMWORD PTR {m}",
                  f"vpsravd {y}, {z}, YMMWORD PTR {m}", f"vpmaxsd {y}, {z}, YMMWORD PTR {m}",
                  f"vpminsd {y}, {z}, YMMWORD PTR {m}", f"vpxor xmm{i % 16}, xmm{(i + 7) % 16}, XMMWORD PTR {m}"]
    for d, a, b in ((0, 1, 2), (8, 1, 2), (0, 9, 2), (0, 1, 10), (15, 14, 13), (3, 12, 7)):
        for op in ("vpmaddwd", "vpaddd", "vpsubd", "vpcmpgtd", "vpackssdw"):
            lines.append(f"{op} ymm{d}, ymm{a}, ymm{b}")
        lines += [f"vpblendd ymm{d}, ymm{a}, ymm{b}, 170", f"vpacksswb xmm{d}, xmm{a}, xmm{b}"]
        for count in (1, 31, 32):
            lines += [f"vpsrlq ymm{d}, ymm{a}, {count}", f"vpsllq ymm{d}, ymm{a}, {count}"]
        lines += [f"vpunpckldq ymm{d}, ymm{a}, ymm{b}", f"vpunpckhdq ymm{d}, ymm{a}, ymm{b}"]
        for count in (16, 31):
            lines.append(f"vpsrad ymm{d}, ymm{a}, {count}")
        lines += [f"vpermq ymm{d}, ymm{a}, 216", f"vextracti128 xmm{d}, ymm{a}, 1", f"vextracti128 xmm{b}, ymm{d}, 0"]
    # AVX-512 (EVEX) for the VNNI int8 GEMM: registers 16-31, and displacements that are and are not multiples of
    # the compressed disp8 unit (64 for a full zmm, 4 for a broadcast dword, 16 for an xmm store).
    evex_mems = mems + ["[rdi+256]", "[rdi+8128]", "[rdi+8192]", "[r9-8192]", "[r9-8256]", "[rsi+508]", "[rsi+512]",
                        "[rax+rcx*2+2032]", "[r13+2048]", "[rdx+100]"]
    for i, m in enumerate(evex_mems):
        z, y, k = f"zmm{(i * 7) % 32}", f"xmm{i % 16}", f"k{1 + i % 7}"
        lines += [f"vmovdqu32 {z}, ZMMWORD PTR {m}", f"vpbroadcastd {z}, DWORD PTR {m}",
                  f"vpdpbusd {z}, zmm{(i * 5 + 3) % 32}, ZMMWORD PTR {m}", f"vmovdqu8 XMMWORD PTR {m}{{{k}}}, {y}"]
    for d, a, b in ((0, 1, 2), (8, 1, 2), (0, 9, 2), (0, 1, 10), (15, 14, 13), (16, 1, 2), (0, 17, 2), (0, 1, 18),
                    (31, 30, 29), (24, 8, 27), (3, 12, 7)):
        lines += [f"vpdpbusd zmm{d}, zmm{a}, zmm{b}", f"vpdpwssd zmm{d}, zmm{a}, zmm{b}"]
    for d, s in ((0, 1), (15, 2), (3, 12), (7, 16), (12, 31), (9, 9)):
        for half in (0, 1):
            lines.append(f"vextracti64x4 ymm{d}, zmm{s}, {half}")
    # AVX-512 requantization and the depthwise multiply-add: full vectors and dword broadcasts ({1to16}).
    for i, m in enumerate(evex_mems[::2]):
        z, a = f"zmm{(i * 3) % 32}", f"zmm{(i * 11 + 5) % 32}"
        lines += [f"vmulps {z}, {a}, ZMMWORD PTR {m}", f"vminps {z}, {a}, DWORD PTR {m}{{1to16}}",
                  f"vpaddd {z}, {a}, DWORD PTR {m}{{1to16}}", f"vpmaxsd {z}, {a}, DWORD PTR {m}{{1to16}}",
                  f"vpminsd {z}, {a}, DWORD PTR {m}{{1to16}}", f"vpdpwssd {z}, {a}, ZMMWORD PTR {m}",
                  f"vmovdqu32 ZMMWORD PTR {m}, {z}"]
    for d, s in ((0, 1), (15, 2), (3, 12), (7, 16), (12, 31), (9, 9), (20, 4)):
        lines += [f"vcvtdq2ps zmm{d}, zmm{s}", f"vcvtps2dq zmm{d}, zmm{s}", f"vpaddd zmm{d}, zmm{s}, zmm{(d + s) % 32}"]
        if d < 16:
            lines.append(f"vpmovsdb xmm{d}, zmm{s}")
    # AVX-512 float GEMM: loads, stores (plain and masked), broadcasts, FMA, min/max, add.
    for i, m in enumerate(evex_mems[::2]):
        z, a, k = f"zmm{(i * 5) % 32}", f"zmm{(i * 13 + 7) % 32}", f"k{1 + i % 7}"
        lines += [f"vmovups {z}, ZMMWORD PTR {m}", f"vmovups ZMMWORD PTR {m}, {z}",
                  f"vmovups ZMMWORD PTR {m}{{{k}}}, {z}", f"vmovups {z}{{{k}}}{{z}}, ZMMWORD PTR {m}",
                  f"vbroadcastss {z}, DWORD PTR {m}", f"vfmadd231ps {z}, {a}, ZMMWORD PTR {m}",
                  f"vaddps {z}, {a}, ZMMWORD PTR {m}"]
    for d, a, b in ((0, 1, 2), (8, 1, 2), (0, 9, 2), (0, 1, 10), (15, 14, 13), (16, 1, 2), (0, 17, 2), (0, 1, 18),
                    (31, 30, 29), (24, 8, 27), (3, 12, 7)):
        for op in ("vfmadd231ps", "vmaxps", "vminps", "vaddps"):
            lines.append(f"{op} zmm{d}, zmm{a}, zmm{b}")
    # The depthwise staging: widen 32 bytes to int16, subtract, interleave two rows.
    for i, m in enumerate(evex_mems[::3]):
        z = f"zmm{(i * 7 + 3) % 32}"
        lines += [f"vpmovsxbw {z}, YMMWORD PTR {m}", f"vpmovzxbw {z}, YMMWORD PTR {m}"]
    for d, a, b in ((0, 1, 2), (8, 1, 2), (0, 9, 2), (0, 1, 10), (16, 1, 2), (0, 17, 2), (0, 1, 18), (31, 30, 29)):
        lines += [f"vpsubw zmm{d}, zmm{a}, zmm{b}", f"vmovdqa64 zmm{d}, zmm{b}", f"vpermt2w zmm{d}, zmm{a}, zmm{b}",
                  f"vpxord zmm{d}, zmm{a}, zmm{b}"]
    # The 8-bit ADD: widen bytes to int32, multiply by a broadcast, shift, narrow.
    for i, m in enumerate(evex_mems[::3]):
        z, a = f"zmm{(i * 5 + 1) % 32}", f"zmm{(i * 3 + 2) % 32}"
        lines += [f"vpmovsxbd {z}, XMMWORD PTR {m}", f"vpmovzxbd {z}, XMMWORD PTR {m}",
                  f"vpmulld {z}, {a}, DWORD PTR {m}{{1to16}}"]
    for d, s in ((0, 1), (15, 2), (3, 12), (7, 16), (12, 31), (9, 9), (20, 4)):
        lines.append(f"vpsrad zmm{d}, zmm{s}, {d + 1}")
        if d < 16:
            lines.append(f"vpmovdb xmm{d}, zmm{s}")
    for k in range(1, 8):
        for r in ("eax", "ecx", "edx", "r8d", "r11d", "r15d"):
            lines.append(f"kmovw k{k}, {r}")
        for r in ("rax", "rcx", "r9", "r15"):
            lines.append(f"kmovq k{k}, {r}")
    # The convolution's receptive-field gather: byte loads under a mask, zeroing and merging, and a masked store.
    for i, m in enumerate(evex_mems[::2]):
        z, k = f"zmm{(i * 7 + 2) % 32}", f"k{1 + i % 7}"
        lines += [f"vmovdqu8 {z}{{{k}}}{{z}}, ZMMWORD PTR {m}", f"vmovdqu8 {z}{{{k}}}, ZMMWORD PTR {m}",
                  f"vmovdqu8 ZMMWORD PTR {m}{{{k}}}, {z}"]
    return lines


def assemble(lines):
    with tempfile.TemporaryDirectory() as tmp:
        src, obj = Path(tmp, "a.s"), Path(tmp, "a.o")
        src.write_text(".intel_syntax noprefix\n" + "\n".join(lines) + "\n")
        subprocess.run(["as", "--64", "-o", str(obj), str(src)], check=True)
        dump = subprocess.run(["objdump", "-d", "-w", "-M", "intel", str(obj)], check=True,
                              capture_output=True, text=True).stdout
    encodings = []
    for row in dump.splitlines():
        m = re.match(r"\s*[0-9a-f]+:\t([0-9a-f ]+)\t", row)
        if m:
            encodings.append(m.group(1).replace(" ", ""))
    if len(encodings) != len(lines):
        sys.exit(f"objdump gave {len(encodings)} instructions for {len(lines)} lines")
    return encodings


def main():
    lines = instruction_list()
    # movabs is the 10-byte immediate form; X86Assembler.mov(_:_: Int) picks it for values beyond 32 bits.
    encodings = assemble(lines)
    version = subprocess.run(["as", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    out = Path("Tests/PureVisionKernelsTests/Fixtures/x86_encodings.json")
    out.write_text(json.dumps({"as": version, "instructions": dict(zip(lines, encodings))}, indent=0) + "\n")
    print(f"{len(lines)} instructions -> {out}")


if __name__ == "__main__":
    main()
