#!/usr/bin/env python3
"""Makes full-integer int8 versions of bundled float models with PyPI `ai-edge-quantizer` (tools/requirements.txt).

Steps per model: float16 weights behind DEQUANTIZE are folded into float32 constants (the quantizer wants float32
weights), a `serving_default` signature is added, the model is calibrated on seeded uniform [-1, 1) inputs plus the
permissive object / hand / face photos committed in Tests/PureVisionImageTests/Fixtures/photos (or
$PUREVISION_TESTDATA; resized, scaled to [-1, 1]), and quantized with the
`static_wi8_ai8` recipe (int8 activations, per-channel int8 weights; inputs and outputs stay float32 behind
QUANTIZE / DEQUANTIZE, so the results are mixed float / int8 graphs).

The outputs are not committed (they are checked with tools/check_int8_parity.py and reported); write them anywhere:

    python3 tools/quantize_models.py --out OUT_DIR [--models palm_detection_full ...]
"""

import argparse
import glob
import os
import sys

import numpy as np
import flatbuffers
from ai_edge_litert import schema_py_generated as schema

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pvtools  # noqa: E402

DEFAULT_MODELS = ["face_detection_short_range", "hand_landmark_full", "face_landmark", "palm_detection_full"]


def fold_float16(model_bytes):
    """Returns the model with every DEQUANTIZE of a constant float16 tensor replaced by a float32 constant."""
    m = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(model_bytes, 0))
    for buf in m.buffers:
        if buf.offset and buf.offset > 1:
            buf.data = np.frombuffer(model_bytes[buf.offset:buf.offset + buf.size], dtype=np.uint8).copy()
            buf.offset, buf.size = 0, 0
    sg = m.subgraphs[0]
    kept = []
    for op in sg.operators:
        code = m.operatorCodes[op.opcodeIndex]
        builtin = max(code.builtinCode, code.deprecatedBuiltinCode)
        src = sg.tensors[op.inputs[0]]
        data = m.buffers[src.buffer].data
        if builtin == schema.BuiltinOperator.DEQUANTIZE and src.type == schema.TensorType.FLOAT16 and data is not None \
                and len(data):
            values = np.frombuffer(bytes(bytearray(data)), dtype=np.float16).astype(np.float32)
            dst = sg.tensors[op.outputs[0]]
            buf = schema.BufferT()
            buf.data = np.frombuffer(values.tobytes(), dtype=np.uint8)
            m.buffers.append(buf)
            dst.buffer = len(m.buffers) - 1
            continue
        kept.append(op)
    sg.operators = kept
    signature = schema.SignatureDefT()
    signature.signatureKey = "serving_default"
    signature.subgraphIndex = 0

    def tensor_maps(indices):
        maps = []
        for index in indices:
            t = schema.TensorMapT()
            t.name = sg.tensors[index].name
            t.tensorIndex = index
            maps.append(t)
        return maps
    signature.inputs = tensor_maps(sg.inputs)
    signature.outputs = tensor_maps(sg.outputs)
    m.signatureDefs = [signature]
    builder = flatbuffers.Builder(0)
    builder.Finish(m.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


def calibration_inputs(float_model, count=8, seed=7):
    interp = pvtools.reference_interpreter(model_content=float_model)
    interp.allocate_tensors()
    signature = interp.get_signature_runner("serving_default").get_input_details()
    names, details = list(signature.keys()), list(signature.values())
    rng = np.random.default_rng(seed)
    samples = []
    for _ in range(count):
        samples.append({n: rng.uniform(-1, 1, d["shape"]).astype(np.float32) for n, d in zip(names, details)})
    testdata = os.environ.get(
        "PUREVISION_TESTDATA", os.path.join(pvtools.REPO_ROOT, "Tests", "PureVisionImageTests", "Fixtures", "photos"))
    photos = sorted(glob.glob(os.path.join(testdata, "*", "*.jpg")) + glob.glob(os.path.join(testdata, "*", "*.png")))[:12]
    if len(details) == 1 and len(details[0]["shape"]) == 4:
        from PIL import Image
        _, h, w, _ = details[0]["shape"]
        for p in photos:
            rgb = np.asarray(Image.open(p).convert("RGB").resize((w, h)), dtype=np.float32)
            samples.append({names[0]: (rgb / 127.5 - 1)[None]})
    return samples


def main():
    from ai_edge_quantizer import quantizer, recipe
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--models", nargs="+", default=DEFAULT_MODELS)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name in args.models:
        source = open(os.path.join(pvtools.MODELS_DIR, name + ".tflite"), "rb").read()
        float_model = fold_float16(source)
        qt = quantizer.Quantizer(float_model, recipe.static_wi8_ai8())
        result = qt.calibrate({"serving_default": calibration_inputs(float_model)})
        quantized = qt.quantize(result).quantized_model
        path = os.path.join(args.out, name + "_int8.tflite")
        with open(path, "wb") as f:
            f.write(quantized)
        print(f"{path}: {len(quantized)} bytes")


if __name__ == "__main__":
    main()
