#!/usr/bin/env python3
"""Checks `purevision run` against LiteRT on models the tests have never seen.

Default: generates N random small float32 models (chains of randomly chosen ops and options, built with the same
builder code as tools/make_op_models.py) in a temporary directory, with seeded random inputs. With --models, checks
the given .tflite files instead, on seeded random inputs in [-1, 1). For each model it runs LiteRT's builtin
reference kernels, then

    purevision run MODEL --input in0.npy [--input in1.npy ...] --output-dir DIR

and compares every output element: |ours - ref| <= 1e-4 + 1e-3 * |ref|. The CLI's outputs are read from DIR as
output_<I>.npy (I = subgraph output index); --output-name changes that pattern. Prints one line per model and
"N passed, M failed"; exits non-zero on any failure. --litert-only skips the CLI (checks the generator alone).

Run from the repository root:  python3 tools/check_run_parity.py [-n 30] [--seed 0] [--purevision PATH]
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pvtools  # noqa: E402
from make_op_models import BO, CSR, DENSE, PAD, ModelBuilder, tb  # noqa: E402

ACTS = list(tb.ACTIVATIONS)


def _pick(rng, options):
    return options[int(rng.integers(len(options)))]


# Each step takes (builder, tensor, rng) with a 4-D NHWC float tensor and returns the next 4-D tensor, or None when
# the op does not fit the current shape.

def step_conv(b, x, rng):
    _, h, w, _ = b.shape(x)
    kernel = _pick(rng, [1, 3, 3, 5])
    stride = _pick(rng, [1, 1, 2])
    dilation = _pick(rng, [1, 1, 2]) if stride == 1 else 1
    padding = _pick(rng, [PAD.SAME, PAD.VALID])
    if padding == PAD.VALID and min(h, w) < (kernel - 1) * dilation + 1:
        padding = PAD.SAME
    return tb.add_conv2d(b, x, rng, int(rng.integers(1, 13)), (kernel, kernel), (stride, stride),
                         (dilation, dilation), padding, _pick(rng, ACTS))


def step_depthwise(b, x, rng):
    _, h, w, _ = b.shape(x)
    kernel = _pick(rng, [3, 5])
    stride = _pick(rng, [1, 2])
    dilation = _pick(rng, [1, 2]) if stride == 1 else 1
    padding = _pick(rng, [PAD.SAME, PAD.VALID])
    if padding == PAD.VALID and min(h, w) < (kernel - 1) * dilation + 1:
        padding = PAD.SAME
    return tb.add_depthwise(b, x, rng, (kernel, kernel), (stride, stride), (dilation, dilation), padding,
                            _pick(rng, [1, 1, 2]), _pick(rng, ACTS))


def step_binary_const(b, x, rng):
    _, h, w, c = b.shape(x)
    shape = _pick(rng, [[], [c], [1, 1, 1, c], [1, h, w, c], [1, h, 1, 1], [1, 1, w, c]])
    other = b.const(rng.uniform(-1, 1, shape).astype(np.float32))
    lhs, rhs = (x, other) if rng.random() < 0.7 else (other, x)
    return tb.add_binary(b, _pick(rng, ["ADD", "SUB", "MUL"]), lhs, rhs, _pick(rng, ACTS))


def step_binary_input(b, x, rng):
    _, h, w, c = b.shape(x)
    other = b.input(_pick(rng, [[1, h, w, c], [1, 1, 1, c], [1, h, w, 1], [1, 1, w, 1]]))
    return tb.add_binary(b, _pick(rng, ["ADD", "SUB", "MUL"]), x, other, _pick(rng, ["NONE", "RELU6"]))


def step_prelu(b, x, rng):
    _, h, w, c = b.shape(x)
    shape = _pick(rng, [[1, 1, c], [h, w, c]])
    return tb.add_prelu(b, x, b.const(rng.uniform(-0.5, 0.5, shape).astype(np.float32)))


def step_unary(b, x, rng):
    return tb.add_unary(b, _pick(rng, [BO.RELU, BO.RELU6, BO.LOGISTIC, BO.TANH, BO.HARD_SWISH]), x)


def step_pool(b, x, rng):
    _, h, w, _ = b.shape(x)
    size = _pick(rng, [2, 3])
    stride = _pick(rng, [1, 2])
    padding = _pick(rng, [PAD.SAME, PAD.VALID])
    if padding == PAD.VALID and min(h, w) < size:
        padding = PAD.SAME
    return tb.add_pool(b, _pick(rng, ["MAX", "AVG"]), x, (size, size), (stride, stride), padding,
                       _pick(rng, ["NONE", "RELU", "RELU6"]))


def step_pad(b, x, rng):
    paddings = [[0, 0]] + [[int(rng.integers(0, 3)), int(rng.integers(0, 3))] for _ in range(3)]
    return tb.add_pad(b, x, paddings, None if rng.random() < 0.5 else float(rng.uniform(-1, 1)))


def step_resize(b, x, rng):
    _, h, w, _ = b.shape(x)
    size = [max(1, int(h * rng.uniform(0.5, 2.2))), max(1, int(w * rng.uniform(0.5, 2.2)))]
    mode = _pick(rng, ["plain", "align", "half"])
    return tb.add_resize_bilinear(b, x, size, mode == "align", mode == "half")


def step_concat(b, x, rng):
    _, h, w, c = b.shape(x)
    extra = b.const(rng.uniform(-1, 1, [1, h, w, int(rng.integers(1, 5))]).astype(np.float32))
    parts = [x, extra] if rng.random() < 0.5 else [extra, x]
    return tb.add_concat(b, parts, _pick(rng, [3, -1]))


def step_depth_to_space(b, x, rng):
    if b.shape(x)[3] % 4:
        return None
    return tb.add_depth_to_space(b, x, 2)


def step_transpose(b, x, rng):
    return tb.add_transpose(b, x, [0, 2, 1, 3])


def step_slice(b, x, rng):
    _, h, w, c = b.shape(x)
    if min(h, w) < 3:
        return None
    begin = [0, int(rng.integers(0, h // 2)), int(rng.integers(0, w // 2)), 0]
    end = [1, h, w, c]
    strides = [1, int(rng.integers(1, 3)), int(rng.integers(1, 3)), 1]
    return tb.add_strided_slice(b, x, begin, end, strides, end_mask=int(rng.integers(0, 16)))


def step_f16_conv(b, x, rng):
    c = b.shape(x)[3]
    out_channels = int(rng.integers(1, 9))
    weights = (rng.standard_normal((out_channels, 3, 3, c)) / np.sqrt(9 * c)).astype(np.float16)
    return tb.add_conv2d(b, x, rng, out_channels, filter_tensor=tb.add_dequantize(b, b.const(weights)),
                         activation=_pick(rng, ACTS))


def step_int8_conv(b, x, rng):
    c = b.shape(x)[3]
    out_channels = int(rng.integers(1, 9))
    weights = (rng.standard_normal((out_channels, 1, 1, c)) / np.sqrt(c)).astype(np.float32)
    w = tb.add_dequantize(b, tb.int8_per_channel(b, weights, axis=0))
    return tb.add_conv2d(b, x, rng, out_channels, kernel=(1, 1), filter_tensor=w)


def step_sparse_conv(b, x, rng):
    c = b.shape(x)[3]
    out_channels = int(rng.integers(1, 9))
    dense = tb.random_pruned(rng, (out_channels, 1, 1, c)).astype(np.float16)
    w = tb.add_dequantize(b, tb.add_densify_of(b, dense, [0, 1, 2, 3], [DENSE, DENSE, DENSE, CSR]))
    return tb.add_conv2d(b, x, rng, out_channels, kernel=(1, 1), filter_tensor=w)


STEPS = [step_conv, step_conv, step_depthwise, step_depthwise, step_binary_const, step_binary_input, step_prelu,
         step_unary, step_pool, step_pad, step_resize, step_concat, step_depth_to_space, step_transpose, step_slice,
         step_f16_conv, step_int8_conv, step_sparse_conv]


def head_classifier(b, x, rng):
    m = tb.add_mean(b, x, [1, 2], False)
    f = tb.add_fully_connected(b, m, rng, int(rng.integers(2, 11)), activation=_pick(rng, ["NONE", "RELU"]))
    return tb.add_softmax(b, f, _pick(rng, [1.0, 0.5]))


def head_flatten(b, x, rng):
    return tb.add_reshape(b, x, [1, -1], rng.random() < 0.5)


def head_mean_channels(b, x, rng):
    return tb.add_mean(b, x, [-1], bool(rng.random() < 0.5))


def random_model(seed):
    """(model bytes, inputs, op names) of one random chain; the same seed gives the same model."""
    rng = np.random.default_rng(seed)
    b = ModelBuilder(f"PureVision random parity model, seed {seed}")
    x = b.input([1, int(rng.integers(4, 13)), int(rng.integers(4, 13)), int(rng.integers(1, 9))])
    outputs = []
    for _ in range(int(rng.integers(2, 7))):
        while True:
            nxt = _pick(rng, STEPS)(b, x, rng)
            if nxt is not None:
                break
        _, h, w, c = b.shape(nxt)
        if h * w * c > 4096 or min(h, w) < 1:
            nxt = tb.add_pool(b, "MAX", nxt, (2, 2), (2, 2), PAD.SAME)
        x = nxt
        if rng.random() < 0.15:
            outputs.append(x)
    head = _pick(rng, [None, None, head_classifier, head_flatten, head_mean_channels])
    outputs.append(head(b, x, rng) if head else x)
    model = b.finish(outputs)
    inputs = [rng.uniform(-1, 1, b.shapes[i]).astype(np.float32) for i in b.inputs]
    return model, inputs, b.op_names


def reference_outputs(model_path, inputs):
    return pvtools.run(pvtools.reference_interpreter(model_path=model_path), inputs)


def run_ours(purevision, model_path, input_paths, output_dir, output_name, count):
    command = [purevision, "run", model_path]
    for path in input_paths:
        command += ["--input", path]
    command += ["--output-dir", output_dir]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        raise RuntimeError(f"purevision exited {result.returncode}: {result.stderr.strip()[-500:]}")
    outputs = []
    for i in range(count):
        path = os.path.join(output_dir, output_name.format(i=i))
        if not os.path.exists(path):
            found = sorted(os.listdir(output_dir))
            raise RuntimeError(f"missing {os.path.basename(path)} in the output dir (found {found})")
        outputs.append(np.load(path))
    return outputs


def check_one(label, model_path, inputs, ops, args, work_dir):
    refs = reference_outputs(model_path, inputs)
    ops_text = "+".join(dict.fromkeys(ops)) if ops else "-"
    if args.litert_only:
        shapes = " ".join("x".join(map(str, r.shape)) for r in refs)
        print(f"{label:28s} LiteRT ok   outputs {shapes:24s} {ops_text}")
        return True
    input_paths = []
    for i, array in enumerate(inputs):
        path = os.path.join(work_dir, f"{label}_in{i}.npy")
        pvtools.save_npy(path, array)
        input_paths.append(path)
    out_dir = os.path.join(work_dir, f"{label}_out")
    os.makedirs(out_dir, exist_ok=True)
    try:
        ours = run_ours(args.purevision, model_path, input_paths, out_dir, args.output_name, len(refs))
    except (RuntimeError, OSError, subprocess.TimeoutExpired, ValueError) as error:
        print(f"{label:28s} max err        -   FAIL  {ops_text}  ({error})")
        return False
    ok, worst = True, 0.0
    for mine, ref in zip(ours, refs):
        good, err = pvtools.within_tolerance(mine, ref)
        ok &= good
        worst = max(worst, err)
    print(f"{label:28s} max err {worst:10.3e}  {'PASS' if ok else 'FAIL'}  {ops_text}")
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", "--count", type=int, default=30, help="random models to generate (default 30)")
    parser.add_argument("--seed", type=int, default=0, help="first random model's seed (default 0)")
    parser.add_argument("--models", nargs="+", help="check these .tflite files instead of random models")
    parser.add_argument("--input-seed", type=int, default=1, help="seed for --models inputs (default 1)")
    parser.add_argument("--purevision", default=".build/release/purevision", help="path of the purevision CLI")
    parser.add_argument("--output-name", default="output_{i}.npy",
                        help="CLI output file pattern (default output{i}.npy)")
    parser.add_argument("--litert-only", action="store_true", help="only build and run models in LiteRT")
    parser.add_argument("--keep", help="keep the generated files in this directory")
    args = parser.parse_args()

    work_dir = args.keep or tempfile.mkdtemp(prefix="purevision-parity-")
    os.makedirs(work_dir, exist_ok=True)
    passed = failed = 0
    if args.models:
        rng = np.random.default_rng(args.input_seed)
        for path in args.models:
            interp = pvtools.reference_interpreter(model_path=path)
            interp.allocate_tensors()
            inputs = [rng.uniform(-1, 1, d["shape"]).astype(d["dtype"]) for d in interp.get_input_details()]
            label = os.path.splitext(os.path.basename(path))[0]
            ok = check_one(label, path, inputs, [], args, work_dir)
            passed, failed = passed + ok, failed + (not ok)
    else:
        for seed in range(args.seed, args.seed + args.count):
            model, inputs, ops = random_model(seed)
            path = os.path.join(work_dir, f"random_{seed}.tflite")
            with open(path, "wb") as f:
                f.write(model)
            ok = check_one(f"random_{seed}", path, inputs, ops, args, work_dir)
            passed, failed = passed + ok, failed + (not ok)
    print(f"{passed} passed, {failed} failed")
    if not args.keep:
        subprocess.run(["rm", "-rf", work_dir], check=False)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
