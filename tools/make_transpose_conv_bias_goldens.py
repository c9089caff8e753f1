#!/usr/bin/env python3
"""Goldens for MediaPipe's custom operator Convolution2DTransposeBias, in Tests/PureVisionEngineTests/Fixtures/ops/.

LiteRT cannot run this operator (it lives in MediaPipe's op resolver), so the expected outputs come from
`transpose_conv_bias()` below, a numpy transcription of mediapipe/util/tflite/operations/transpose_conv_bias.cc:
custom options are a raw little-endian struct (int32 padding 1 SAME / 2 VALID, int32 stride_w, int32 stride_h);
per axis the total padding is max(0, k - (in - 1) % s - 1) with SAME, 0 with VALID; out = s * (in - 1) + k - pad;
the padding before is pad // 2; every output starts as the bias, then for in_y, in_x, in_c, k_y, k_x the products
are added in float32 in that order.

Before writing anything the script checks that transcription against MediaPipe itself: `selfie_segmenter.tflite`
(whose last two operators are this custom op and a LOGISTIC) is cut before the custom op and run in LiteRT; the numpy
op and a float32 sigmoid finish it; MediaPipe Tasks 0.10.14's ImageSegmenter runs the whole model on a 256 x 256
image (identity warp, activation NONE, no mask resize, so its confidence mask is the raw model output). The two
must agree within the body's runtime difference (LiteRT's XNNPACK vs MediaPipe's, ~3e-4; a wrong weight layout,
padding or bias rule is off by far more). The figure is printed and stored in the manifest.

Cases (`transpose_conv_bias.json`): small models with the op alone on odd shapes, strides that do not divide,
overlapping taps, and the selfie models' 2 x 2 stride-2 shape; plus `refuse` models the engine must reject at load:
two inputs, 8-byte options, padding code 0, channel mismatch, stride 0.

Run from the repository root:  python3 tools/make_transpose_conv_bias_goldens.py
"""

import json
import os
import struct
import sys
import zlib

import flatbuffers
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pvtools  # noqa: E402
from tflite_builder import BO, ModelBuilder  # noqa: E402
from ai_edge_litert import schema_py_generated as schema  # noqa: E402

OUT_DIR = os.path.join(pvtools.REPO_ROOT, "Tests", "PureVisionEngineTests", "Fixtures", "ops")
CUSTOM = "Convolution2DTransposeBias"
SAME, VALID = 1, 2


def out_extent(size, kernel, stride, padding):
    total = max(0, kernel - (size - 1) % stride - 1) if padding == SAME else 0
    return stride * (size - 1) + kernel - total, total // 2


def transpose_conv_bias(x, weights, bias, stride_w, stride_h, padding):
    """MediaPipe's loops, float32, bias first. x [N,H,W,C], weights [O,KH,KW,C], bias [O]."""
    n, h, w, c = x.shape
    o, kh, kw, _ = weights.shape
    oh, pad_h = out_extent(h, kh, stride_h, padding)
    ow, pad_w = out_extent(w, kw, stride_w, padding)
    out = np.empty((n, oh, ow, o), dtype=np.float32)
    out[...] = bias.astype(np.float32)
    for b in range(n):
        for iy in range(h):
            for ix in range(w):
                for ic in range(c):
                    value = x[b, iy, ix, ic]
                    for ky in range(kh):
                        oy = iy * stride_h - pad_h + ky
                        if not 0 <= oy < oh:
                            continue
                        for kx in range(kw):
                            ox = ix * stride_w - pad_w + kx
                            if not 0 <= ox < ow:
                                continue
                            # One float32 product and one float32 add per output channel, as in C.
                            out[b, oy, ox, :] = (out[b, oy, ox, :] + value * weights[:, ky, kx, ic]).astype(np.float32)
    return out


def options_bytes(padding, stride_w, stride_h):
    return struct.pack("<iii", padding, stride_w, stride_h)


def build_model(input_shape, weights, bias, options, output_shape, inputs_used=3):
    b = ModelBuilder(f"PureVision {CUSTOM} fixture")
    x = b.input(input_shape)
    tensors = [x, b.const(weights), b.const(bias)][:inputs_used]
    y = b.op(BO.CUSTOM, tensors, output_shape, custom_code=CUSTOM.encode())
    b.operators[-1].customOptions = np.frombuffer(options, dtype=np.uint8)
    b.operators[-1].customOptionsFormat = schema.CustomOptionsFormat.FLEXBUFFERS
    return b.pack([y])


# (name, input [N,H,W,C], out channels, kernel (kh, kw), stride (sh, sw), padding)
CASES = [
    ("tconv_bias_selfie_2x2_s2", [1, 5, 7, 16], 1, (2, 2), (2, 2), SAME),
    ("tconv_bias_3x3_s2_same", [1, 4, 5, 3], 5, (3, 3), (2, 2), SAME),
    ("tconv_bias_3x3_s2_valid", [1, 4, 5, 3], 5, (3, 3), (2, 2), VALID),
    ("tconv_bias_3x2_s2x3_same", [1, 3, 4, 6], 7, (3, 2), (2, 3), SAME),
    ("tconv_bias_4x4_s2_overlap", [2, 3, 3, 9], 17, (4, 4), (2, 2), SAME),
    ("tconv_bias_1x1_s1", [1, 3, 5, 4], 3, (1, 1), (1, 1), VALID),
    ("tconv_bias_5x3_s3x1_same", [1, 2, 6, 5], 9, (5, 3), (3, 1), SAME),
]

# (name, what is wrong) — each model is otherwise the selfie-shaped case.
REFUSE = [
    ("tconv_bias_refuse_two_inputs", "two inputs instead of three"),
    ("tconv_bias_refuse_short_options", "8 bytes of custom options"),
    ("tconv_bias_refuse_padding_unknown", "padding code 0"),
    ("tconv_bias_refuse_channels", "weights' input channels differ from the input's"),
    ("tconv_bias_refuse_stride_zero", "stride 0"),
]


def write_case(name, shape, out_channels, kernel, stride, padding):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    weights = (rng.standard_normal((out_channels, kernel[0], kernel[1], shape[3])) /
               np.sqrt(kernel[0] * kernel[1] * shape[3])).astype(np.float32)
    bias = (rng.standard_normal(out_channels) * 0.1).astype(np.float32)
    x = rng.uniform(-1, 1, shape).astype(np.float32)
    y = transpose_conv_bias(x, weights, bias, stride[1], stride[0], padding)
    model = build_model(shape, weights, bias, options_bytes(padding, stride[1], stride[0]), list(y.shape))
    with open(os.path.join(OUT_DIR, f"{name}.tflite"), "wb") as f:
        f.write(model)
    pvtools.save_npy(os.path.join(OUT_DIR, f"{name}_input0.npy"), x)
    pvtools.save_npy(os.path.join(OUT_DIR, f"{name}_output0.npy"), y)
    return {"name": name, "model": f"{name}.tflite", "inputs": [{"file": f"{name}_input0.npy", "shape": shape}],
            "outputs": [{"file": f"{name}_output0.npy", "shape": list(y.shape)}],
            "kernel": list(kernel), "stride": list(stride), "padding": "SAME" if padding == SAME else "VALID"}


def write_refusal(name, what):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    shape, weights_shape = [1, 4, 4, 16], [1, 2, 2, 16]
    options, used = options_bytes(SAME, 2, 2), 3
    if name.endswith("two_inputs"):
        used = 2
    elif name.endswith("short_options"):
        options = options[:8]
    elif name.endswith("padding_unknown"):
        options = options_bytes(0, 2, 2)
    elif name.endswith("channels"):
        weights_shape = [1, 2, 2, 15]
    elif name.endswith("stride_zero"):
        options = options_bytes(SAME, 0, 2)
    weights = rng.standard_normal(weights_shape).astype(np.float32)
    bias = np.zeros(1, dtype=np.float32)
    model = build_model(shape, weights, bias, options, [1, 8, 8, 1], inputs_used=used)
    with open(os.path.join(OUT_DIR, f"{name}.tflite"), "wb") as f:
        f.write(model)
    return {"name": name, "model": f"{name}.tflite", "wrong": what}


def check_against_mediapipe():
    """Largest |numpy op + sigmoid - MediaPipe| over the selfie segmenter's output on a 256 x 256 photo."""
    import mediapipe as mp
    from mediapipe.tasks.python import vision
    from mediapipe.tasks.python.core.base_options import BaseOptions
    from PIL import Image

    model_path = os.path.join(pvtools.MODELS_DIR, "selfie_segmenter.tflite")
    data = open(model_path, "rb").read()
    model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(data, 0))
    graph = model.subgraphs[0]
    codes = model.operatorCodes
    position = next(i for i, op in enumerate(graph.operators)
                    if codes[op.opcodeIndex].customCode and codes[op.opcodeIndex].customCode.decode() == CUSTOM)
    op = graph.operators[position]
    options = bytes(op.customOptions)
    padding, stride_w, stride_h = struct.unpack("<iii", options[:12])
    feature, weights_index, bias_index = op.inputs
    graph.operators = graph.operators[:position]
    model.metadata = None

    def packed(outputs):
        graph.outputs = outputs
        builder = flatbuffers.Builder(1024)
        builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
        return bytes(builder.Output())

    # The weights and bias are DEQUANTIZE outputs (float16 constants): LiteRT's builtin kernels expand them.
    weights, bias = pvtools.run(pvtools.reference_interpreter(model_content=packed([weights_index, bias_index])),
                                [np.zeros((1, 256, 256, 3), dtype=np.float32)])
    cut = packed([feature])

    photo = os.path.join(pvtools.REPO_ROOT, "Tests", "PureVisionTests", "Fixtures", "segmenter", "fr_obama.png")
    rgb = np.asarray(Image.open(photo).convert("RGB").resize((256, 256), Image.BILINEAR), dtype=np.uint8)
    interp = pvtools.xnnpack_interpreter(model_content=cut)
    # Identity warp: the tensor is the image's bytes / 255 (metadata mean 0, std 255).
    (features,) = pvtools.run(interp, [rgb[None].astype(np.float32) / np.float32(255)])
    raw = transpose_conv_bias(features, weights, bias, stride_w, stride_h, padding)
    with np.errstate(over="ignore"):  # exp(-raw) overflows to inf for very negative logits: sigmoid 0, as in C
        ours = (np.float32(1) / (np.float32(1) + np.exp(-raw, dtype=np.float32))).astype(np.float32)[0, :, :, 0]

    segmenter = vision.ImageSegmenter.create_from_options(vision.ImageSegmenterOptions(
        base_options=BaseOptions(model_asset_path=model_path), output_confidence_masks=True))
    result = segmenter.segment(mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(rgb)))
    theirs = result.confidence_masks[0].numpy_view().astype(np.float32)
    return float(np.abs(ours - theirs).max()), float(np.abs(ours - theirs).mean())


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    max_err, mean_err = check_against_mediapipe()
    print(f"numpy {CUSTOM} + sigmoid vs MediaPipe 0.10.14 on selfie_segmenter: max {max_err:.3g}, mean {mean_err:.3g}")
    if max_err > 1e-3:
        raise SystemExit("the numpy transcription does not reproduce MediaPipe's output")
    manifest = {
        "generator": "python3 tools/make_transpose_conv_bias_goldens.py",
        "reference": "numpy transcription of mediapipe/util/tflite/operations/transpose_conv_bias.cc (float32, "
                     "bias first, MediaPipe's loop order)",
        "mediapipe_check": {"model": "selfie_segmenter.tflite", "max_abs": max_err, "mean_abs": mean_err,
                            "against": "mediapipe 0.10.14 ImageSegmenter, 256x256 image, raw confidence mask"},
        "cases": [write_case(*c) for c in CASES],
        "refuse": [write_refusal(*r) for r in REFUSE],
    }
    with open(os.path.join(OUT_DIR, "transpose_conv_bias.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    print(f"{len(CASES)} cases and {len(REFUSE)} refusal models written")


if __name__ == "__main__":
    sys.exit(main())
