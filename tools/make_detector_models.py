"""Tiny SSD detector models and MediaPipe ObjectDetector goldens in Tests/PureVisionTests/Fixtures/detector/.

The graph (tools/tflite_builder.py): uint8 [1,8,8,3] (scale 1/255) -> DEQUANTIZE -> RESHAPE [1,64,3] = x;
score = (x - 0.5) * 12 (3 classes, logits), location = CONCATENATION(((x - 0.5) * 0.5), 0.1) on the last axis
(YXHW raw values); outputs [score, location]. Metadata from mediapipe 0.10.14's object-detector metadata writer:
labels red / green / blue with French display names, 64 fixed anchors on an 8x8 grid (size 0.25 x 0.3),
decoding with sigmoid scores, exponential sizes and x/y/w/h scales 1, 2, 1, 0.5 — so everything differs from
efficientdet_lite0's metadata.

- `tiny_ssd.tflite` and `tiny_ssd.json`: MediaPipe Tasks ObjectDetector results on `tiny_ssd_input.png` (40x32, a
  seeded pattern of coloured blocks) with default options, with score_threshold 0.6 + max_results 4, with the
  French display names, and with an allowlist (green);
- `tiny_ssd_postprocess.tflite` and `tiny_ssd_postprocess.json`: the same input ending in the
  TFLite_Detection_PostProcess custom operator (scores = x for 3 classes without background, encodings as above,
  the same anchors as a constant; fast NMS, max_detections 10, max_classes_per_detection 2, score threshold 0.2,
  IoU 0.5), metadata from the writer's `create_for_models_with_nms`; MediaPipe results with default options,
  score_threshold 0.5, max_results 3 and a denylist (red);
- models that must be refused (not run through MediaPipe, which CHECK-fails on some): `tiny_ssd_no_detector_metadata`
  (no DETECTOR_METADATA), `tiny_ssd_malformed_detector_metadata` (its bytes are not a flatbuffer),
  `tiny_ssd_anchor_count` (63 anchors for num_boxes 64), `tiny_ssd_box_count` (64 anchors, num_boxes 64, but the
  outputs hold 48 boxes), `tiny_ssd_no_metadata` (the graph alone).

Run from the repository root: `python3 tools/make_detector_models.py`.
"""

import json
import os
import sys

import numpy as np
from PIL import Image

import mediapipe as mp
from mediapipe.tasks.python import vision
from mediapipe.tasks.python.core.base_options import BaseOptions
from mediapipe.tasks.python.metadata.metadata_writers import metadata_info
from mediapipe.tasks.python.metadata.metadata_writers import metadata_writer
from mediapipe.tasks.python.metadata.metadata_writers import object_detector as od_writer
from mediapipe.tasks.metadata import metadata_schema_py_generated as mschema

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tflite_builder as tb  # noqa: E402

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(REPO_ROOT, "Tests", "PureVisionTests", "Fixtures", "detector")
COMMAND = "python3 tools/make_detector_models.py"
GRID = 8


def graph(boxes=GRID * GRID):
    b = tb.ModelBuilder("PureVision tiny SSD detector")
    q = tb.schema.QuantizationParametersT()
    q.scale = [1 / 255]
    q.zeroPoint = [0]
    image = b._tensor([1, GRID, GRID, 3], np.uint8, 0, "image", quantization=q)
    b.inputs.append(image)
    x = b.op(tb.BO.DEQUANTIZE, [image], [1, GRID, GRID, 3])
    x = tb.add_reshape(b, x, [1, GRID * GRID, 3], as_tensor=True)
    if boxes != GRID * GRID:
        x = tb.add_strided_slice(b, x, [0, 0, 0], [1, boxes, 3], [1, 1, 1])
    centred = tb.add_binary(b, "SUB", x, b.const(np.array([0.5], np.float32)))
    score = tb.add_binary(b, "MUL", centred, b.const(np.array([12.0], np.float32)))
    yxh = tb.add_binary(b, "MUL", centred, b.const(np.array([0.5], np.float32)))
    location = tb.add_concat(b, [yxh, b.const(np.full([1, boxes, 1], 0.1, np.float32))], 2)
    b.tensors[score].name = "score"
    b.tensors[location].name = "location"
    return bytearray(b.finish([score, location]))


def postprocess_graph():
    from flatbuffers import flexbuffers
    b = tb.ModelBuilder("PureVision tiny SSD detector with TFLite_Detection_PostProcess")
    q = tb.schema.QuantizationParametersT()
    q.scale = [1 / 255]
    q.zeroPoint = [0]
    image = b._tensor([1, GRID, GRID, 3], np.uint8, 0, "image", quantization=q)
    b.inputs.append(image)
    x = b.op(tb.BO.DEQUANTIZE, [image], [1, GRID, GRID, 3])
    x = tb.add_reshape(b, x, [1, GRID * GRID, 3], as_tensor=True)
    centred = tb.add_binary(b, "SUB", x, b.const(np.array([0.5], np.float32)))
    yxh = tb.add_binary(b, "MUL", centred, b.const(np.array([0.5], np.float32)))
    encodings = tb.add_concat(b, [yxh, b.const(np.full([1, GRID * GRID, 1], 0.1, np.float32))], 2)
    anchor_values = np.array([[a.y_center, a.x_center, a.height, a.width]
                              for a in anchors().fixed_anchors_schema.anchors], np.float32)
    anchor_tensor = b.const(anchor_values, name="anchors")
    fbb = flexbuffers.Builder()
    with fbb.Map():
        fbb.Int("max_detections", 10)
        fbb.Int("max_classes_per_detection", 2)
        fbb.Float("nms_score_threshold", 0.2)
        fbb.Float("nms_iou_threshold", 0.5)
        fbb.Int("num_classes", 3)
        fbb.Float("y_scale", 2.0)
        fbb.Float("x_scale", 1.0)
        fbb.Float("h_scale", 0.5)
        fbb.Float("w_scale", 1.0)
    outs = b.op(tb.BO.CUSTOM, [encodings, x, anchor_tensor], n_outputs=4,
                custom_code="TFLite_Detection_PostProcess", out_shapes=[[1, 20, 4], [1, 20], [1, 20], [1]])
    b.operators[-1].customOptions = list(bytes(fbb.Finish()))
    b.operators[-1].customOptionsFormat = 0
    return bytearray(b.pack(outs))


def anchors(count=GRID * GRID):
    out = []
    for i in range(count):
        y, x = divmod(i, GRID)
        out.append(od_writer.FixedAnchor(x_center=(x + 0.5) / GRID, y_center=(y + 0.5) / GRID, width=0.25,
                                         height=0.3))
    return od_writer.SsdAnchorsOptions(fixed_anchors_schema=od_writer.FixedAnchorsSchema(anchors=out))


def decoding(boxes=GRID * GRID):
    return od_writer.TensorsDecodingOptions(
        num_classes=3, num_boxes=boxes, num_coords=4, keypoint_coord_offset=0, num_keypoints=0,
        num_values_per_keypoint=2, x_scale=1.0, y_scale=2.0, w_scale=1.0, h_scale=0.5,
        apply_exponential_on_box_size=True, sigmoid_score=True)


LABELS = ["red", "green", "blue"]
FRENCH = ["rouge", "vert", "bleu"]


class MalformedDetectorMetadata(metadata_info.CustomMetadataMd):
    def __init__(self):
        super().__init__("DETECTOR_METADATA")

    def create_metadata(self):
        custom = mschema.CustomMetadataT()
        custom.name = self.name
        custom.data = list(b"not an ObjectDetectorOptions flatbuffer")
        return custom


def with_metadata(model, custom=None, anchor_count=GRID * GRID, boxes=GRID * GRID):
    writer = metadata_writer.MetadataWriter(model)
    writer.add_general_info("tiny SSD", "PureVision test detector")
    writer.add_image_input([0.0], [255.0])
    writer.add_raw_detection_output(
        metadata_writer.Labels().add(LABELS).add(FRENCH, "fr"),
        output_tensors_order=metadata_info.RawDetectionOutputTensorsOrder.SCORE_LOCATION)
    if custom == "valid":
        writer.add_custom_metadata(od_writer.ObjectDetectorOptionsMd(anchors(anchor_count), decoding(boxes)))
    elif custom == "malformed":
        writer.add_custom_metadata(MalformedDetectorMetadata())
    model, _ = writer.populate()
    return bytes(model)


def test_image():
    rng = np.random.default_rng(21)
    blocks = rng.integers(0, 256, (8, 10, 3), dtype=np.uint8)
    return np.repeat(np.repeat(blocks, 4, axis=0), 4, axis=1)


def detector(path, **options):
    return vision.ObjectDetector.create_from_options(vision.ObjectDetectorOptions(
        base_options=BaseOptions(model_asset_path=path), running_mode=vision.RunningMode.IMAGE, **options))


def main():
    files = {
        "tiny_ssd.tflite": with_metadata(graph(), "valid"),
        "tiny_ssd_no_detector_metadata.tflite": with_metadata(graph()),
        "tiny_ssd_malformed_detector_metadata.tflite": with_metadata(graph(), "malformed"),
        "tiny_ssd_anchor_count.tflite": with_metadata(graph(), "valid", anchor_count=GRID * GRID - 1),
        "tiny_ssd_box_count.tflite": with_metadata(graph(48), "valid"),
        "tiny_ssd_no_metadata.tflite": bytes(graph()),
        "tiny_ssd_postprocess.tflite": bytes(od_writer.MetadataWriter.create_for_models_with_nms(
            postprocess_graph(), [0.0], [255.0], metadata_writer.Labels().add(LABELS).add(FRENCH, "fr")).populate()[0]),
    }
    for name, data in files.items():
        with open(os.path.join(OUT_DIR, name), "wb") as f:
            f.write(data)
    rgb = test_image()
    Image.fromarray(rgb).save(os.path.join(OUT_DIR, "tiny_ssd_input.png"), format="PNG")
    image = mp.Image(image_format=mp.ImageFormat.SRGB, data=rgb)
    runs = []
    for options in ({}, {"score_threshold": 0.6, "max_results": 4}, {"display_names_locale": "fr", "max_results": 3},
                    {"category_allowlist": ["green"]}):
        task = detector(os.path.join(OUT_DIR, "tiny_ssd.tflite"), **options)
        result = task.detect(image)
        task.close()
        runs.append({"options": options, "detections": [
            {"box": [d.bounding_box.origin_x, d.bounding_box.origin_y, d.bounding_box.width, d.bounding_box.height],
             "categories": [{"score": float(c.score), "category_name": c.category_name,
                             "display_name": c.display_name} for c in d.categories]}
            for d in result.detections]})
    for model, plan in (("tiny_ssd.tflite", None), ("tiny_ssd_postprocess.tflite",
                                                  [{}, {"score_threshold": 0.5}, {"max_results": 3},
                                                   {"category_denylist": ["red"], "display_names_locale": "fr"}])):
        if plan is None:
            continue
        post_runs = []
        for options in plan:
            task = detector(os.path.join(OUT_DIR, model), **options)
            result = task.detect(image)
            task.close()
            post_runs.append({"options": options, "detections": [
                {"box": [d.bounding_box.origin_x, d.bounding_box.origin_y, d.bounding_box.width,
                         d.bounding_box.height],
                 "categories": [{"score": float(c.score), "category_name": c.category_name,
                                 "display_name": c.display_name} for c in d.categories]}
                for d in result.detections]})
        with open(os.path.join(OUT_DIR, "tiny_ssd_postprocess.json"), "w") as f:
            json.dump({"command": COMMAND, "versions": {"mediapipe": mp.__version__}, "image": "tiny_ssd_input.png",
                       "model": model, "runs": post_runs}, f, indent=1)
            f.write("\n")
        print("postprocess:", ", ".join(f"{len(r['detections'])}" for r in post_runs))
    with open(os.path.join(OUT_DIR, "tiny_ssd.json"), "w") as f:
        json.dump({"command": COMMAND, "versions": {"mediapipe": mp.__version__}, "image": "tiny_ssd_input.png",
                   "runs": runs}, f, indent=1)
        f.write("\n")
    print(", ".join(f"{len(r['detections'])}" for r in runs))


if __name__ == "__main__":
    main()
