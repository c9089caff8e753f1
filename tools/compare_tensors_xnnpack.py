#!/usr/bin/env python3
"""Every intermediate tensor of a model, ours beside LiteRT-XNNPACK's: the first place two runs part.

The model is rewritten so that every operator's output (except DEQUANTIZE of constants, which XNNPACK folds) is a
model output; LiteRT's default interpreter (XNNPACK delegate, 1 thread) and `purevision run` (release build) run it
on the same input, and each operator's output is compared element by element: the count of differing elements and
the largest absolute difference, in operator order. XNNPACK is what MediaPipe runs, so this is how a kernel's order
of operations and rounding are checked against it. One known difference: the XNNPACK inside ai-edge-litert 2.3.0 is
newer than MediaPipe 0.10.14's and sums a MEAN over H × W row after row, where MediaPipe's (and the engine) sums 7
rows per pass; such MEAN outputs, and what follows them, differ here in the last bits while equal to MediaPipe's.

Input: the SplitMix64 stream of seed 7 (tools/pvtools.py) mapped to [0, 1) for float inputs and onto the 8-bit range
for quantized ones, or `--input FILE.npy`.

Run from the repository root:
    python3 tools/compare_tensors_xnnpack.py MODEL.tflite [--member NAME_IN_TASK_BUNDLE] [--input X.npy]
        [--quantized-arithmetic litert|xnnpack] [--all]
"""

import argparse
import io
import os
import subprocess
import sys
import tempfile
import zipfile

import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as schema

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pvtools  # noqa: E402

OPERATOR_NAMES = {v: k for k, v in schema.BuiltinOperator.__dict__.items() if not k.startswith("_")}
DEQUANTIZE = schema.BuiltinOperator.DEQUANTIZE


def every_output_model(buffer):
    """The model with every operator output as a subgraph output; returns (bytes, outputs, [(name, outputs)])."""
    model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(buffer, 0))
    graph = model.subgraphs[0]
    outputs, operators = [], []
    for op in graph.operators:
        code = model.operatorCodes[op.opcodeIndex]
        builtin = max(code.builtinCode, code.deprecatedBuiltinCode)
        name = OPERATOR_NAMES.get(builtin, str(builtin))
        if builtin == schema.BuiltinOperator.CUSTOM:
            name = "CUSTOM:" + (code.customCode.decode() if isinstance(code.customCode, bytes) else str(code.customCode))
        operators.append((name, [int(t) for t in op.outputs]))
        if builtin == DEQUANTIZE:
            continue
        outputs += [int(t) for t in op.outputs if t >= 0 and int(t) not in outputs]
    graph.outputs = np.array(outputs, dtype=np.int32)
    builder = flatbuffers.Builder(0)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output()), outputs, operators, graph


def default_input(detail):
    f = pvtools.splitmix64_floats(7, int(np.prod(detail["shape"]))).reshape(detail["shape"])
    if detail["dtype"] == np.float32:
        return (f * 0.5 + 0.5).astype(np.float32)
    q = np.floor((f.astype(np.float64) + 1) * 128)
    return (q - 128 if detail["dtype"] == np.int8 else q).astype(detail["dtype"])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("--member", help="a .tflite inside a .task bundle")
    parser.add_argument("--input", help="an .npy input (the model's single input)")
    parser.add_argument("--quantized-arithmetic", default="xnnpack", choices=["litert", "xnnpack"])
    parser.add_argument("--all", action="store_true", help="print identical tensors too")
    parser.add_argument("--purevision", default=".build/release/purevision")
    args = parser.parse_args()
    with open(args.model, "rb") as f:
        buffer = f.read()
    if args.member:
        buffer = zipfile.ZipFile(io.BytesIO(buffer)).read(args.member)
    model, outputs, operators, graph = every_output_model(buffer)
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "model.tflite")
        with open(path, "wb") as f:
            f.write(model)
        interpreter = pvtools.xnnpack_interpreter(model_content=model, num_threads=1)
        interpreter.allocate_tensors()
        details = interpreter.get_input_details()
        inputs = [np.load(args.input)] if args.input else [default_input(d) for d in details]
        reference = pvtools.run(interpreter, inputs)
        command = [args.purevision, "run", path, "--output-dir", directory,
                   "--quantized-arithmetic", args.quantized_arithmetic]
        for index, x in enumerate(inputs):
            input_path = os.path.join(directory, f"input{index}.npy")
            pvtools.save_npy(input_path, x)
            command += ["--input", input_path]
        subprocess.run(command, check=True)
        position = {t: i for i, t in enumerate(outputs)}
        differing = 0
        for index, (name, tensors) in enumerate(operators):
            for t in tensors:
                if t not in position:
                    continue
                ours = np.load(os.path.join(directory, f"output_{position[t]}.npy")).astype(np.float64).ravel()
                theirs = reference[position[t]].astype(np.float64).ravel()
                count = int((ours != theirs).sum())
                differing += count > 0
                if count or args.all:
                    largest = float(np.abs(ours - theirs).max()) if ours.size else 0.0
                    label = graph.tensors[t].name
                    label = label.decode() if isinstance(label, bytes) else label
                    print(f"{index:4d} {name:24s} tensor {t:<5d} {count:>9d} of {theirs.size:<9d} differ, "
                          f"largest {largest:.3e}  {label[:48]}")
    print(f"{differing} of {len(outputs)} compared tensors differ")


if __name__ == "__main__":
    main()
