#!/usr/bin/env python3
"""Goldens for the int8 model: efficientnet_lite0_int8 tensors (engine) and its classifier results (PureVision).

Engine (`Tests/PureVisionEngineTests/Fixtures/models/efficientnet_lite0_int8/`): LiteRT builtin-kernel outputs (int8 [1, 1000])
for three seeded inputs and one photo:
- `seed<S>_output0.npy`: input q = floor((f + 1) · 128) − 128 for the SplitMix64 stream f of seed S (tools/pvtools.py),
  i.e. the stream mapped onto the whole int8 range;
- `photo_output0.npy`: the uint8 photo of the float model's fixture (`../efficientnet_lite0/photo_input_u8.npy`),
  each pixel p quantized as q = clamp(round(((p − 127) / 128) / scale) + zeroPoint) in float32, ties away from zero
  (the input's scale and zero point; the normalization PROVENANCE gives for this model).

Classifier (`Tests/PureVisionTests/Fixtures/classifier/classifier_efficientnet_int8.json`): for the five object photos
of the classifier fixtures, the 224×224 input MediaPipe's ImageToTensor (stretch, REPLICATE border) makes of them —
restated bit for bit by tools/warp_reference.py — quantized as above, run by LiteRT's builtin kernels; stored: the
raw int8 output, the dequantized scores (float32(scale) · float32(q − zeroPoint)) of the top 5 (ties by index).
MediaPipe's ImageClassifier refuses int8 inputs, so LiteRT on the same quantized input is the reference.

Run from the repository root:  python3 tools/make_int8_goldens.py
"""

import json
import os
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pvtools  # noqa: E402
import warp_reference  # noqa: E402

MODEL = os.path.join(pvtools.MODELS_DIR, "efficientnet_lite0_int8.tflite")
ENGINE_DIR = os.path.join(pvtools.REPO_ROOT, "Tests", "PureVisionEngineTests", "Fixtures", "models", "efficientnet_lite0_int8")
CLASSIFIER_DIR = os.path.join(pvtools.REPO_ROOT, "Tests", "PureVisionTests", "Fixtures", "classifier")
PHOTOS = ["gcompris_polar_bear.png", "opencvdoc_orange.png", "opencvdoc_space_shuttle.png", "skimage_chelsea.png",
          "skimage_coffee.png"]
SEEDS = [1, 2, 3]
MEAN, STD = np.float32(127), np.float32(128)


def quantize_pixels(pixels, scale, zero_point):
    value = (pixels.astype(np.float32) - MEAN) / STD
    scaled = (value / np.float32(scale)).astype(np.float64)  # float32 quotient, rounded exactly in float64
    rounded = np.sign(scaled) * np.floor(np.abs(scaled) + 0.5)
    return np.clip(rounded.astype(np.int64) + zero_point, -128, 127).astype(np.int8)


def main():
    interp = pvtools.reference_interpreter(model_path=MODEL)
    interp.allocate_tensors()
    detail = interp.get_input_details()[0]
    scale, zero_point = detail["quantization"]
    out_scale, out_zero = interp.get_output_details()[0]["quantization"]
    shape = list(detail["shape"])
    os.makedirs(ENGINE_DIR, exist_ok=True)
    for seed in SEEDS:
        f = pvtools.splitmix64_floats(seed, int(np.prod(shape))).astype(np.float64)
        x = (np.floor((f + 1) * 128) - 128).astype(np.int8).reshape(shape)
        pvtools.save_npy(os.path.join(ENGINE_DIR, f"seed{seed}_output0.npy"), pvtools.run(interp, [x])[0])
    photo = np.load(os.path.join(ENGINE_DIR, "..", "efficientnet_lite0", "photo_input_u8.npy"))
    x = quantize_pixels(photo, scale, zero_point).reshape(shape)
    pvtools.save_npy(os.path.join(ENGINE_DIR, "photo_output0.npy"), pvtools.run(interp, [x])[0])

    results = []
    for name in PHOTOS:
        rgb = np.ascontiguousarray(np.asarray(Image.open(os.path.join(CLASSIFIER_DIR, name)).convert("RGB")))
        warped = warp_reference.image_to_tensor(rgb, None, shape[2], shape[1], False, "replicate")[0]
        x = quantize_pixels(warped, scale, zero_point).reshape(shape)
        q = pvtools.run(interp, [x])[0].reshape(-1).astype(np.int64)
        scores = np.float32(out_scale) * (q - out_zero).astype(np.float32)
        order = sorted(range(len(q)), key=lambda i: (-scores[i], i))[:5]
        results.append({"image": name, "top5": [{"index": i, "score": float(scores[i])} for i in order],
                        "output_int8": q.tolist()})
    with open(os.path.join(CLASSIFIER_DIR, "classifier_efficientnet_int8.json"), "w") as f:
        json.dump({"command": "python3 tools/make_int8_goldens.py", "litert": f"ai-edge-litert {pvtools.LITERT_VERSION}",
                   "model": "Models/efficientnet_lite0_int8.tflite", "normalization": {"mean": 127, "std": 128},
                   "input_quantization": {"scale": float(scale), "zero_point": int(zero_point)},
                   "output_quantization": {"scale": float(out_scale), "zero_point": int(out_zero)},
                   "results": results}, f)
        f.write("\n")
    print("written", ENGINE_DIR, "and classifier_efficientnet_int8.json")


if __name__ == "__main__":
    main()
