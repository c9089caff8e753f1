#!/usr/bin/env python3
"""Small models ending in the TFLite_Detection_PostProcess custom operator, with LiteRT goldens, in
Tests/PureVisionEngineTests/Fixtures/detection_postprocess/.

Each model (tools/tflite_builder.py) takes box encodings [1, N, 4] (y, x, h, w) and class scores [1, N, C (+1)] as
inputs, holds the anchors [N, 4] as a constant, and has the operator's four outputs (boxes, classes, scores, count).
Options are a FlexBuffers map written with the `flatbuffers` package. Inputs are seeded: anchors on a jittered grid,
encodings ~ N(0, 0.5), scores uniform in [0, 1] (for `fast_ties` rounded to 1/8 so equal scores are common; the
other cases keep distinct scores because TFLite's partial sort leaves the order of ties unspecified). uint8 cases
quantize encodings, scores and anchors. Goldens: LiteRT's builtin kernel (BUILTIN_WITHOUT_DEFAULT_DELEGATES);
only the first `count` detections are defined (TFLite leaves the other slots unwritten).

Run from the repository root:  python3 tools/make_detection_postprocess_models.py
"""

import json
import os
import sys

import numpy as np
from flatbuffers import flexbuffers

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pvtools  # noqa: E402
import tflite_builder as tb  # noqa: E402

OUT_DIR = os.path.join(pvtools.REPO_ROOT, "Tests", "PureVisionEngineTests", "Fixtures", "detection_postprocess")

CASES = [
    # name, boxes, classes, background column, options, uint8, ties
    ("fast_one_class_per_box", 64, 5, True,
     dict(max_detections=10, max_classes_per_detection=1, nms_score_threshold=0.3, nms_iou_threshold=0.5), False,
     False),
    ("fast_ties", 80, 3, True,
     dict(max_detections=12, max_classes_per_detection=1, nms_score_threshold=0.25, nms_iou_threshold=0.4), False,
     True),
    ("fast_two_classes_per_box_no_background", 50, 4, False,
     dict(max_detections=6, max_classes_per_detection=2, nms_score_threshold=0.2, nms_iou_threshold=0.6), False,
     False),
    ("regular_nms", 60, 4, True,
     dict(max_detections=8, max_classes_per_detection=1, detections_per_class=5, use_regular_nms=True,
          nms_score_threshold=0.35, nms_iou_threshold=0.5), False, False),
    ("fast_uint8", 48, 3, True,
     dict(max_detections=7, max_classes_per_detection=1, nms_score_threshold=0.3, nms_iou_threshold=0.5), True,
     False),
]
SCALES = dict(y_scale=10.0, x_scale=10.0, h_scale=5.0, w_scale=5.0)


def flex_options(options, num_classes):
    fbb = flexbuffers.Builder()
    with fbb.Map():
        for key, value in sorted({**options, **SCALES, "num_classes": num_classes}.items()):
            if isinstance(value, bool):
                fbb.Bool(key, value)
            elif isinstance(value, int):
                fbb.Int(key, value)
            else:
                fbb.Float(key, value)
    return bytes(fbb.Finish())


def quant(scale, zero_point):
    q = tb.schema.QuantizationParametersT()
    q.scale = [float(scale)]
    q.zeroPoint = [int(zero_point)]
    return q


def build(name, boxes, classes, background, options, uint8, ties, seed):
    rng = np.random.default_rng(seed)
    columns = classes + (1 if background else 0)
    grid = int(np.ceil(np.sqrt(boxes)))
    anchors = np.zeros((boxes, 4), np.float32)
    for i in range(boxes):
        r, c = divmod(i, grid)
        anchors[i] = [(r + 0.5) / grid + rng.uniform(-0.02, 0.02), (c + 0.5) / grid + rng.uniform(-0.02, 0.02),
                      rng.uniform(0.1, 0.4), rng.uniform(0.1, 0.4)]
    encodings = (rng.standard_normal((1, boxes, 4)) * 0.5).astype(np.float32)
    scores = rng.uniform(0, 1, (1, boxes, columns)).astype(np.float32)
    if ties:
        scores = (np.round(scores * 8) / 8).astype(np.float32)
    b = tb.ModelBuilder(f"PureVision TFLite_Detection_PostProcess case {name}")
    if uint8:
        enc_q, score_q, anchor_q = (0.02, 128), (1 / 255, 0), (1 / 255, 0)
        enc_in = b._tensor([1, boxes, 4], np.uint8, 0, "box_encodings", quant(*enc_q))
        score_in = b._tensor([1, boxes, columns], np.uint8, 0, "class_predictions", quant(*score_q))
        b.inputs += [enc_in, score_in]
        anchors_u8 = np.clip(np.round(anchors / anchor_q[0]), 0, 255).astype(np.uint8)
        anchor_t = b.const(anchors_u8, name="anchors", quantization=quant(*anchor_q))
        inputs = [np.clip(np.round(encodings / enc_q[0]) + enc_q[1], 0, 255).astype(np.uint8),
                  np.clip(np.round(scores / score_q[0]), 0, 255).astype(np.uint8)]
    else:
        enc_in = b.input([1, boxes, 4], "box_encodings")
        score_in = b.input([1, boxes, columns], "class_predictions")
        anchor_t = b.const(anchors, name="anchors")
        inputs = [encodings, scores]
    m = options["max_detections"] * options["max_classes_per_detection"]
    outs = b.op(tb.BO.CUSTOM, [enc_in, score_in, anchor_t], n_outputs=4, custom_code="TFLite_Detection_PostProcess",
                out_shapes=[[1, m, 4], [1, m], [1, m], [1]])
    b.operators[-1].customOptions = list(flex_options(options, classes))
    b.operators[-1].customOptionsFormat = 0
    model = b.pack(outs)
    outputs = pvtools.run(pvtools.reference_interpreter(model_content=model), inputs)
    return model, inputs, outputs


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    entries = []
    for seed, (name, boxes, classes, background, options, uint8, ties) in enumerate(CASES):
        model, inputs, outputs = build(name, boxes, classes, background, options, uint8, ties, 2100 + seed)
        with open(os.path.join(OUT_DIR, f"{name}.tflite"), "wb") as f:
            f.write(model)
        entry = {"name": name, "model": f"{name}.tflite", "inputs": [], "outputs": [],
                 "count": int(outputs[3][0])}
        for kind, arrays in (("input", inputs), ("output", outputs)):
            for i, array in enumerate(arrays):
                file_name = f"{name}_{kind}{i}.npy"
                pvtools.save_npy(os.path.join(OUT_DIR, file_name), array)
                entry[kind + "s"].append(file_name)
        entries.append(entry)
        print(name, "count", entry["count"])
    with open(os.path.join(OUT_DIR, "cases.json"), "w") as f:
        json.dump({"generator": "python3 tools/make_detection_postprocess_models.py",
                   "litert": f"ai-edge-litert {pvtools.LITERT_VERSION}", "cases": entries}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
