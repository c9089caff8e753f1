#!/usr/bin/env python3
"""Checks `purevision run` against LiteRT's builtin kernels on quantized (int8 / uint8) models, bit for bit.

For each model: seeded inputs in the model's own input types (8-bit inputs take the SplitMix64 stream of
tools/pvtools.py mapped onto the whole integer range, float inputs the stream itself in [-1, 1)), optionally one real
photo (--image, resized to the input and normalized (x - 127) / 128 then quantized with the input's scale and zero
point), LiteRT with BUILTIN_WITHOUT_DEFAULT_DELEGATES, then

    purevision run MODEL --input in0.npy ... --output-dir DIR [--threads N]

Prints per model and output: the share of identical elements, the largest difference (in quantized steps for 8-bit
outputs), and with --xnnpack the same figures for LiteRT's default XNNPACK path against the builtin kernels.
Exits non-zero when an output has fewer than 99.9 % identical elements or any element off by more than 1.

Run from the repository root:  python3 tools/check_int8_parity.py MODEL.tflite ... [--seeds 0 1 2] [--image PATH]
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pvtools  # noqa: E402


def seeded_inputs(details, seed):
    shapes = [list(d["shape"]) for d in details]
    floats = pvtools.splitmix64_inputs(seed, shapes)
    out = []
    for d, f in zip(details, floats):
        if d["dtype"] == np.int8:
            out.append(np.clip(np.floor((f.astype(np.float64) + 1) * 128) - 128, -128, 127).astype(np.int8))
        elif d["dtype"] == np.uint8:
            out.append(np.clip(np.floor((f.astype(np.float64) + 1) * 128), 0, 255).astype(np.uint8))
        else:
            out.append(f.astype(d["dtype"]))
    return out


def image_inputs(details, path):
    from PIL import Image
    d = details[0]
    _, h, w, _ = d["shape"]
    rgb = np.asarray(Image.open(path).convert("RGB").resize((w, h), Image.BILINEAR), dtype=np.float32)
    x = ((rgb - 127.0) / 128.0)[None]
    if d["dtype"] in (np.int8, np.uint8):
        scale, zero = d["quantization"]
        info = np.iinfo(d["dtype"])
        x = np.clip(np.round(x / scale) + zero, info.min, info.max).astype(d["dtype"])
    return [x.astype(d["dtype"])]


def compare(ours, ref):
    if ours.shape != ref.shape:
        ours = ours.reshape(ref.shape)
    diff = np.abs(ours.astype(np.int64) - ref.astype(np.int64)) if ref.dtype.kind in "iu" else np.abs(
        ours.astype(np.float64) - ref.astype(np.float64))
    identical = float(np.mean(diff == 0)) * 100 if diff.size else 100.0
    return identical, float(diff.max()) if diff.size else 0.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("models", nargs="+")
    parser.add_argument("--seeds", type=int, nargs="*", default=[0, 1, 2])
    parser.add_argument("--image", action="append", default=[])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--purevision", default=os.path.join(pvtools.REPO_ROOT, ".build", "release", "purevision"))
    parser.add_argument("--xnnpack", action="store_true", help="also report LiteRT-XNNPACK against the builtin kernels")
    args = parser.parse_args()
    failures = 0
    for model in args.models:
        ref_interp = pvtools.reference_interpreter(model_path=model)
        ref_interp.allocate_tensors()
        details = ref_interp.get_input_details()
        cases = [(f"seed {s}", seeded_inputs(details, s)) for s in args.seeds]
        cases += [(os.path.basename(p), image_inputs(details, p)) for p in args.image]
        for label, inputs in cases:
            expected = pvtools.run(ref_interp, inputs)
            with tempfile.TemporaryDirectory() as tmp:
                command = [args.purevision, "run", model, "--output-dir", tmp, "--threads", str(args.threads)]
                for i, x in enumerate(inputs):
                    path = os.path.join(tmp, f"in{i}.npy")
                    pvtools.save_npy(path, x)
                    command += ["--input", path]
                result = subprocess.run(command, capture_output=True, text=True)
                if result.returncode != 0:
                    print(f"FAIL {os.path.basename(model)} {label}: {result.stderr.strip()}")
                    failures += 1
                    continue
                ours = [np.load(os.path.join(tmp, f"output_{i}.npy")) for i in range(len(expected))]
            for i, (o, r) in enumerate(zip(ours, expected)):
                if o.dtype != r.dtype:
                    print(f"FAIL {os.path.basename(model)} {label} output {i}: dtype {o.dtype}, LiteRT {r.dtype}")
                    failures += 1
                    continue
                identical, worst = compare(o, r)
                ok = identical >= 99.9 and worst <= 1 if r.dtype.kind in "iu" else worst <= 1e-4 + 1e-3 * float(
                    np.abs(r).max())
                line = f"{'ok  ' if ok else 'FAIL'} {os.path.basename(model)} {label} output {i} {r.dtype} {list(r.shape)}: " \
                       f"{identical:.3f} % identical, max diff {worst:g}"
                if args.xnnpack:
                    x_out = pvtools.run(pvtools.xnnpack_interpreter(model_path=model), inputs)[i]
                    xi, xw = compare(x_out, r)
                    line += f" | XNNPACK vs builtin: {xi:.3f} % identical, max diff {xw:g}"
                print(line)
                failures += 0 if ok else 1
    print("all ok" if failures == 0 else f"{failures} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
