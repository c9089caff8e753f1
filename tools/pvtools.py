"""Shared helpers for the reference-side tools: the SplitMix64 input stream, LiteRT interpreters, .npy writing.

The SplitMix64 stream is the contract with the Swift tests, which regenerate the same inputs bit for bit:
state starts at the seed; per value, state += 0x9E3779B97F4A7C15 (mod 2^64), z is mixed with the two SplitMix64
multipliers, k = z >> 40 (24 bits) and the value is float32((k - 2^23) / 2^23), exactly representable in [-1, 1).
"""

import os

import numpy as np
from ai_edge_litert.interpreter import Interpreter, OpResolverType

import ai_edge_litert

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS_DIR = os.path.join(REPO_ROOT, "Models")
LITERT_VERSION = getattr(ai_edge_litert, "__version__", None) or "2.3.0"

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def splitmix64_floats(seed, count, start=0):
    """Values start ..< start + count of the SplitMix64 stream for `seed`, as float32 in [-1, 1)."""
    # The state after n steps is seed + n * gamma (mod 2^64); uint64 arrays wrap silently.
    steps = np.arange(start + 1, start + count + 1, dtype=np.uint64)
    z = np.uint64(seed) + steps * _GAMMA
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    k = (z >> np.uint64(40)).astype(np.int64)
    return ((k - (1 << 23)).astype(np.float64) / float(1 << 23)).astype(np.float32)


def splitmix64_inputs(seed, shapes):
    """One stream per seed: fills each input shape in turn, row-major, continuing the same stream."""
    arrays = []
    offset = 0
    for shape in shapes:
        n = int(np.prod(shape)) if len(shape) else 1
        arrays.append(splitmix64_floats(seed, n, offset).reshape(shape))
        offset += n
    return arrays


def reference_interpreter(model_path=None, model_content=None, num_threads=None):
    """LiteRT with its builtin reference kernels and no default delegate (no XNNPACK)."""
    return Interpreter(
        model_path=model_path, model_content=model_content, num_threads=num_threads,
        experimental_op_resolver_type=OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)


def xnnpack_interpreter(model_path=None, model_content=None, num_threads=None):
    """LiteRT with its default resolver, which applies the XNNPACK delegate."""
    return Interpreter(model_path=model_path, model_content=model_content, num_threads=num_threads)


def run(interp, inputs):
    """Allocates, sets `inputs` in input order, invokes, returns the outputs in the subgraph's output order."""
    interp.allocate_tensors()
    for detail, value in zip(interp.get_input_details(), inputs):
        interp.set_tensor(detail["index"], np.ascontiguousarray(value, dtype=detail["dtype"]))
    interp.invoke()
    return [interp.get_tensor(d["index"]).copy() for d in interp.get_output_details()]


def save_npy(path, array):
    """Writes a C-order, little-endian .npy (format 1.0) that the Swift reader accepts."""
    array = np.ascontiguousarray(array)
    if array.dtype.byteorder == ">":
        array = array.astype(array.dtype.newbyteorder("<"))
    np.save(path, array, allow_pickle=False)


def within_tolerance(ours, ref, atol=1e-4, rtol=1e-3):
    """The project's float parity rule, |ours - ref| <= atol + rtol * |ref|, and the largest absolute error."""
    ours = np.asarray(ours, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    if ours.shape != ref.shape:
        return False, float("inf")
    err = np.abs(ours - ref)
    max_err = float(err.max()) if err.size else 0.0
    ok = bool(np.all(err <= atol + rtol * np.abs(ref))) and bool(np.all(np.isfinite(ours) == np.isfinite(ref)))
    return ok, max_err


__all__ = [
    "LITERT_VERSION", "MODELS_DIR", "REPO_ROOT", "reference_interpreter", "run", "save_npy",
    "splitmix64_floats", "splitmix64_inputs", "within_tolerance", "xnnpack_interpreter",
]
