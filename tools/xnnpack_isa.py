"""Holds this process's LiteRT-XNNPACK to the x86 instruction sets up to AVX2 + FMA, on a CPU that has AVX-512.

XNNPACK picks its micro-kernels once per process from the CPU's features: its hardware config, a bit set of
`xnn_arch_flags`. On an AVX-512 CPU its float kernels then use 512-bit vectors and its 8-bit ones VNNI, which our
portable kernels, the x86 stand-in for arm64 NEON (`--portable-haswell`), cannot: they stop at AVX2 + FMA. To compare
the two on the same instruction set, `limit_to_avx2()` initializes that config itself, before any interpreter exists,
and clears every flag above AVX2, so that every XNNPACK delegate the process makes afterwards runs its AVX2 + FMA
kernels (its 8-bit ones multiply with `vpmaddwd`), as on a CPU without AVX-512.

This reaches into the wheel's internals, so it checks each of them and refuses (`XNNPACKISAError`) when one does not
hold:
- `xnn_init_hardware_config`, a local symbol in the symbol table of ai-edge-litert's `libpywrap_litert_common.so`,
  returns the address of the config, and the arch flags are the 64-bit word at offset 8 of it (XNNPACK's
  `struct xnn_hardware_config`);
- the x86 flags are laid out as in that XNNPACK: bit 0 SSE, 1 SSE2, 2 SSSE3, 3 SSE4.1, 4 AVX, 5 F16C, 6 FMA3, 7 AVX2,
  and from bit 8 (AVX256SKX, i.e. AVX-512VL on 256-bit vectors) to bit 20 (AMX) the AVX-512, VNNI and AMX ones; the
  flags read must have SSE, SSE2, FMA3 and AVX2 set and nothing above bit 20, as on this CPU;
- no XNNPACK has been initialized in the process yet (an operator already made keeps the kernels it was given), which
  the caller ensures by calling this first.
"""

import ctypes
import os
import platform
import struct
import sys

import ai_edge_litert
import ai_edge_litert.interpreter  # noqa: F401  (loads the shared library this module patches)

LIBRARY = "libpywrap_litert_common.so"
SYMBOL = b"xnn_init_hardware_config"
FLAGS_OFFSET = 8
AVX2_AND_BELOW = (1 << 8) - 1  # SSE … AVX2
REQUIRED = (1 << 0) | (1 << 1) | (1 << 6) | (1 << 7)  # SSE, SSE2, FMA3, AVX2
KNOWN = (1 << 21) - 1  # every x86 flag of that XNNPACK's layout


class XNNPACKISAError(RuntimeError):
    """The wheel is not laid out as this module expects, or the CPU lacks AVX2 + FMA."""


def _symbol_value(path, name):
    """The value (address relative to the load base) of the symbol `name` in the ELF file's `.symtab`."""
    with open(path, "rb") as file:
        data = file.read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise XNNPACKISAError(f"{path} is not a little-endian 64-bit ELF file")
    section_offset, = struct.unpack_from("<Q", data, 0x28)
    entry_size, count = struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, section_offset + i * entry_size) for i in range(count)]
    for _, kind, _, _, offset, size, link, _, _, symbol_size in sections:
        if kind != 2:  # SHT_SYMTAB
            continue
        strings_offset = sections[link][4]
        for index in range(size // symbol_size):
            name_offset, _, _, _, value, _ = struct.unpack_from("<IBBHQQ", data, offset + index * symbol_size)
            end = data.index(b"\0", strings_offset + name_offset)
            if data[strings_offset + name_offset:end] == name:
                return value
    raise XNNPACKISAError(f"{path} has no symbol {name.decode()} (a stripped or different ai-edge-litert wheel)")


def _load_base(path):
    """Where the shared library at `path` is mapped in this process (its mapping at file offset 0)."""
    real = os.path.realpath(path)
    with open("/proc/self/maps") as maps:
        for line in maps:
            fields = line.split()
            if len(fields) >= 6 and os.path.realpath(fields[5]) == real and int(fields[2], 16) == 0:
                return int(fields[0].split("-")[0], 16)
    raise XNNPACKISAError(f"{path} is not loaded in this process")


def limit_to_avx2():
    """Clears XNNPACK's arch flags above AVX2 for this process; returns (flags before, flags after)."""
    if sys.platform != "linux" or platform.machine() not in ("x86_64", "AMD64"):
        raise XNNPACKISAError(f"only on x86-64 Linux (this is {sys.platform} {platform.machine()})")
    with open("/proc/cpuinfo") as cpuinfo:
        features = set(next((line for line in cpuinfo if line.startswith("flags")), "").split())
    if not {"avx2", "fma"} <= features:
        raise XNNPACKISAError("this CPU has no AVX2 + FMA: XNNPACK cannot be held to it")
    path = os.path.join(os.path.dirname(ai_edge_litert.__file__), LIBRARY)
    init = ctypes.CFUNCTYPE(ctypes.c_void_p)(_load_base(path) + _symbol_value(path, SYMBOL))
    config = init()
    if not config:
        raise XNNPACKISAError("xnn_init_hardware_config returned no config (cpuinfo could not read the CPU)")
    flags = ctypes.c_uint64.from_address(config + FLAGS_OFFSET)
    before = flags.value
    if before & REQUIRED != REQUIRED or before & ~KNOWN:
        raise XNNPACKISAError(f"XNNPACK's arch flags read {before:#x}, not the layout this module knows")
    flags.value = before & AVX2_AND_BELOW
    return before, flags.value


def apply_option(isa, program):
    """What a script's `--xnnpack-isa` asks: "avx2" holds XNNPACK to AVX2 + FMA (saying so on stderr), "native"
    leaves it alone; a wheel or CPU this module cannot handle ends the script with the reason."""
    if isa != "avx2":
        return
    try:
        before, after = limit_to_avx2()
    except XNNPACKISAError as error:
        sys.exit(f"{program}: --xnnpack-isa avx2: {error}")
    print(f"XNNPACK arch flags {before:#x} -> {after:#x} (AVX2 + FMA)", file=sys.stderr, flush=True)
