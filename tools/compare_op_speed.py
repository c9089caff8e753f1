#!/usr/bin/env python3
"""Times single layers of the bench models, ours against LiteRT-XNNPACK, to show which operator a model's ratio
comes from.

Writes one-operator float32 models (tools/tflite_builder.py, seeded weights) with the shapes of the layers that
dominate efficientnet_lite0, hand_landmark_full and face_landmark: first convolutions (3x3 stride 2 from RGB),
depthwise 3x3 and 5x5, pointwise 1x1 convolutions from 112x112 down to 7x7 pixels, and the 1280 -> 1000 classifier
head. Each model is timed by our `bench --model FILE --json` and, in the same run, by LiteRT's default interpreter
(XNNPACK), interleaved per model over ROUNDS rounds; each side's figure is its fastest run (one-layer times are
short, so the minimum is the least noisy statistic). Ratios are ours / XNNPACK.

Run from the repository root:
    python3 tools/compare_op_speed.py [--bench .build/release/bench] [--no-codegen] [--threads 1] [--rounds 3]
                                      [--runs 200] [--only NAME ...] [--list] [--keep DIR] [--xnnpack-isa avx2]
    python3 tools/compare_op_speed.py --bench .build-haswell/release/bench --no-codegen   # the portable kernels
    python3 tools/compare_op_speed.py --bench .build-haswell/release/bench --no-codegen --xnnpack-isa avx2

--xnnpack-isa avx2 holds XNNPACK to AVX2 + FMA on a CPU with AVX-512 (tools/xnnpack_isa.py), the instruction set of
the haswell build of the bench.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tflite_builder as tb  # noqa: E402
import xnnpack_isa  # noqa: E402
from tflite_builder import ModelBuilder  # noqa: E402
from ai_edge_litert.interpreter import Interpreter  # noqa: E402


def _conv(shape, out_channels, **kw):
    return lambda b, rng: tb.add_conv2d(b, b.input(shape), rng, out_channels, **kw)


def _depthwise(shape, **kw):
    return lambda b, rng: tb.add_depthwise(b, b.input(shape), rng, **kw)


LAYERS = {
    "first_3x3s2_224x3_to32": _conv([1, 224, 224, 3], 32, stride=(2, 2), activation="RELU6"),
    "first_3x3s2_192x3_to16": _conv([1, 192, 192, 3], 16, stride=(2, 2), activation="RELU6"),
    "dw3x3_112x32": _depthwise([1, 112, 112, 32], activation="RELU6"),
    "dw3x3s2_112x96": _depthwise([1, 112, 112, 96], stride=(2, 2), activation="RELU6"),
    "dw3x3_56x144": _depthwise([1, 56, 56, 144], activation="RELU6"),
    "dw5x5_28x240": _depthwise([1, 28, 28, 240], kernel=(5, 5), activation="RELU6"),
    "dw5x5_14x672": _depthwise([1, 14, 14, 672], kernel=(5, 5), activation="RELU6"),
    "dw5x5_7x1152": _depthwise([1, 7, 7, 1152], kernel=(5, 5), activation="RELU6"),
    "pw_112x32_to16": _conv([1, 112, 112, 32], 16, kernel=(1, 1)),
    "pw_112x16_to96": _conv([1, 112, 112, 16], 96, kernel=(1, 1), activation="RELU6"),
    "pw_56x24_to144": _conv([1, 56, 56, 24], 144, kernel=(1, 1), activation="RELU6"),
    "pw_14x112_to672": _conv([1, 14, 14, 112], 672, kernel=(1, 1), activation="RELU6"),
    "pw_7x192_to1152": _conv([1, 7, 7, 192], 1152, kernel=(1, 1), activation="RELU6"),
    "pw_7x320_to1280": _conv([1, 7, 7, 320], 1280, kernel=(1, 1), activation="RELU6"),
    "pw_7x1152_to320": _conv([1, 7, 7, 1152], 320, kernel=(1, 1)),
    "fc_1280_to1000": lambda b, rng: tb.add_fully_connected(b, b.input([1, 1280]), rng, 1000),
}


def write_models(names, directory):
    for name in names:
        builder = ModelBuilder(description=f"PureVision layer timing: {name}")
        output = LAYERS[name](builder, np.random.default_rng(1))
        with open(os.path.join(directory, f"{name}.tflite"), "wb") as f:
            f.write(builder.finish([output]))


def ours_min_ms(bench, path, threads, runs, no_codegen):
    command = [bench, "--json", "--model", path, "--runs", str(runs), "--threads", str(threads), "--rounds", "1"]
    if no_codegen:
        command.append("--no-codegen")
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"compare_op_speed: {' '.join(command)} failed:\n{result.stderr}")
    for line in result.stdout.splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if row.get("kind") == "model":
            return row["min_ms"]
    sys.exit(f"compare_op_speed: no model row in the output of {' '.join(command)}")


def litert_min_ms(interpreter, runs):
    for _ in range(20):
        interpreter.invoke()
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        interpreter.invoke()
        best = min(best, (time.perf_counter() - start) * 1e3)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", default=".build/release/bench", help="our bench binary")
    parser.add_argument("--no-codegen", action="store_true", help="time our Swift kernels (bench --no-codegen)")
    parser.add_argument("--threads", type=int, default=1, help="threads on both sides (default 1)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds per layer (default 3)")
    parser.add_argument("--runs", type=int, default=200, help="timed runs per side and round (default 200)")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="these layers only")
    parser.add_argument("--list", action="store_true", help="list the layers and exit")
    parser.add_argument("--keep", metavar="DIR", help="write the one-layer models into DIR and keep them")
    parser.add_argument("--xnnpack-isa", choices=["native", "avx2"], default="native",
                        help="hold XNNPACK to AVX2 + FMA (avx2) instead of the CPU's widest instruction set (native)")
    args = parser.parse_args()
    xnnpack_isa.apply_option(args.xnnpack_isa, "compare_op_speed")
    if args.list:
        print("\n".join(LAYERS))
        return
    names = args.only or list(LAYERS)
    unknown = [name for name in names if name not in LAYERS]
    if unknown:
        sys.exit(f"compare_op_speed: unknown layer(s) {', '.join(unknown)}; --list shows them")
    if args.rounds < 1 or args.runs < 1 or args.threads < 1:
        sys.exit("compare_op_speed: --rounds, --runs and --threads must be at least 1")
    if not os.path.exists(args.bench):
        sys.exit(f"compare_op_speed: no bench at {args.bench} (swift build -c release --product bench)")
    with tempfile.TemporaryDirectory() as scratch:
        directory = args.keep or scratch
        os.makedirs(directory, exist_ok=True)
        write_models(names, directory)
        interpreters = {}
        for name in names:
            interpreter = Interpreter(model_path=os.path.join(directory, f"{name}.tflite"), num_threads=args.threads)
            interpreter.allocate_tensors()
            detail = interpreter.get_input_details()[0]
            values = np.random.default_rng(1).uniform(-1, 1, detail["shape"]).astype(np.float32)
            interpreter.set_tensor(detail["index"], values)
            interpreters[name] = interpreter
        ours = {name: float("inf") for name in names}
        xnnpack = {name: float("inf") for name in names}
        for _ in range(args.rounds):
            for name in names:
                path = os.path.join(directory, f"{name}.tflite")
                ours[name] = min(ours[name], ours_min_ms(args.bench, path, args.threads, args.runs, args.no_codegen))
                xnnpack[name] = min(xnnpack[name], litert_min_ms(interpreters[name], args.runs))
    side = "Swift kernels (--no-codegen)" if args.no_codegen else "default kernels"
    print(f"{'layer':26s} {'ours ms':>9s} {'XNNPACK ms':>11s} {'ratio':>6s}")
    for name in names:
        print(f"{name:26s} {ours[name]:9.3f} {xnnpack[name]:11.3f} {ours[name] / xnnpack[name]:6.2f}")
    print(f"fastest of {args.rounds} x {args.runs} runs per side, {args.threads} thread(s), interleaved per layer; "
          f"ours: {side} of {args.bench}"
          + ("; XNNPACK held to AVX2 + FMA" if args.xnnpack_isa == "avx2" else ""))


if __name__ == "__main__":
    main()
