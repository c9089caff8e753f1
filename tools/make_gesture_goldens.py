"""MediaPipe gesture recognizer goldens in Tests/PureVisionTests/Fixtures/gestures/.

Inputs are the hand landmarker's committed fixtures (Tests/PureVisionTests/Fixtures/hands/, made by
tools/make_hand_goldens.py): the four hand photos, their rotations, scalings and two-hand composites
(`images.json`), and the 48-frame synthetic video (`video/frames.json`). Nothing new is derived here. Every image
is decoded with PIL and handed to MediaPipe as an SRGB `mp.Image` (PNGs decode identically everywhere; for the JPEGs
PIL's decode is the one PureVision's decoders reproduce).

Goldens (MediaPipe Tasks `GestureRecognizer`, mediapipe 0.10.14):
- `gestures_image.json`: IMAGE mode, runs described by `bundle` (`Models/gesture_recognizer.task` or the Model Maker
  bundle `Models/gesture_recognizer_custom.task`) and `options`:
  - standard bundle, default options, num_hands 1 and 2, every image;
  - standard bundle, ImageProcessingOptions.rotation_degrees on the transposed copies (turned back upright);
  - standard bundle, canned classifier options: category_allowlist ["Thumb_Up"], category_denylist ["None"],
    score_threshold 0.9 (a hand without a prediction empties the whole result), max_results 1;
  - custom bundle, Python defaults (no score_threshold: the custom model's metadata threshold 0.5 applies) and
    score_threshold 0.0 on the custom classifier (what the C++ API sends by default), num_hands 2, every image.
- `gestures_video.json`: VIDEO mode over the frames (timestamps from frames.json), one fresh recognizer per run:
  standard bundle num_hands 1 and 2, custom bundle num_hands 1.

Bad-bundle fixture: `classifier_5_outputs_8_labels.tflite`, a FULLY_CONNECTED [1,128] -> [1,5] + SOFTMAX model
(tools/tflite_builder.py, weights from numpy's default_rng(19)) given the canned classifier's 8 labels with
mediapipe's metadata writer: a classifier whose output size does not fit its labels, for the typed-error tests.

Each result keeps MediaPipe's lists as they are: `gestures` (per hand with a prediction; index is always -1 in
Python), `hands` (handedness, landmarks, world landmarks, in MediaPipe's order). The gestures list is shorter than
the hands list when a hand got no prediction.

Run from the repository root: `python3 tools/make_gesture_goldens.py`.
"""

import hashlib
import io
import json
import os
import re
import sys
import time
import zipfile
from unittest import mock

import numpy as np
import PIL
from PIL import Image

import mediapipe as mp
from mediapipe.tasks.python import vision
from mediapipe.tasks.python.components.processors.classifier_options import ClassifierOptions
from mediapipe.tasks.python.core.base_options import BaseOptions
from mediapipe.tasks.python.vision.core.image_processing_options import ImageProcessingOptions

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HANDS_DIR = os.path.join(REPO_ROOT, "Tests", "PureVisionTests", "Fixtures", "hands")
OUT_DIR = os.path.join(REPO_ROOT, "Tests", "PureVisionTests", "Fixtures", "gestures")
BUNDLES = {
    "standard": os.path.join("Models", "gesture_recognizer.task"),
    "custom": os.path.join("Models", "gesture_recognizer_custom.task"),
}
COMMAND = "python3 tools/make_gesture_goldens.py"

FACTS = {
    "graph": "mediapipe/tasks/cc/vision/gesture_recognizer/gesture_recognizer_graph.cc: HandLandmarkerGraph, then "
             "per hand hand_gesture_recognizer_graph.cc (SingleHandGestureRecognizerGraph)",
    "embedder_inputs": "landmarks_to_matrix_calculator.cc: image landmarks aspect-normalized about 0.5 (double "
                       "arithmetic), rotated about (0.5, 0.5) by the image rotation, wrist-origin, divided by the "
                       "larger x/y extent + 1e-5; world landmarks the same without the aspect step; "
                       "handedness_to_matrix_calculator.cc: Right -> score, Left -> 1 - score",
    "classifiers": "custom classifier (if the bundle has custom_gesture_classifier.tflite), then canned; score "
                   "threshold: option, else metadata ScoreThresholdingOptions, else none",
    "combining": "combined_prediction_calculator.cc: first list whose argmax is not 'None' wins, else the first "
                 "'None'; empty lists are skipped; no prediction -> hand skipped; no gesture at all -> empty result",
    "doc": "the project's notes on MediaPipe's gesture recognizer",
}


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def write_json(path, payload):
    """indent=1 JSON with every innermost array of numbers on one line."""
    text = json.dumps(payload, indent=1)
    text = re.sub(r"\[\s+([^\[\]{}\"]*?)\s+\]", lambda m: "[" + re.sub(r",\s+", ", ", m.group(1)) + "]", text)
    with open(path, "w") as f:
        f.write(text + "\n")


def load(path):
    rgb = np.ascontiguousarray(np.asarray(Image.open(path).convert("RGB")))
    return mp.Image(image_format=mp.ImageFormat.SRGB, data=rgb)


def classifier_options(record):
    return ClassifierOptions(**(record or {}))


def recognizer(bundle, running_mode, options):
    return vision.GestureRecognizer.create_from_options(vision.GestureRecognizerOptions(
        base_options=BaseOptions(model_asset_path=os.path.join(REPO_ROOT, BUNDLES[bundle])),
        running_mode=running_mode, num_hands=options["num_hands"],
        canned_gesture_classifier_options=classifier_options(options.get("canned")),
        custom_gesture_classifier_options=classifier_options(options.get("custom"))))


def category(c):
    return {"index": int(c.index), "score": float(c.score), "category_name": c.category_name,
            "display_name": c.display_name}


def result_record(result):
    hands = []
    for i, landmarks in enumerate(result.hand_landmarks):
        hands.append({
            "handedness": category(result.handedness[i][0]),
            "landmarks": [[float(p.x), float(p.y), float(p.z)] for p in landmarks],
            "world_landmarks": [[float(p.x), float(p.y), float(p.z)] for p in result.hand_world_landmarks[i]],
        })
    return {"gestures": [[category(c) for c in g] for g in result.gestures], "hands": hands}


def image_plan(images):
    """(image file, bundle, options) in a fixed order; options hold num_hands, rotation and classifier options."""
    files = [e["file"] for e in images]
    plan = [(f, "standard", {"num_hands": n}) for f in files for n in (1, 2)]
    for stem in ("hand_src", "hand_dst", "palm_up", "clock_hands"):
        for degrees in (90, 180, 270):
            plan.append((f"{stem}_rot{degrees}.png", "standard", {"num_hands": 2, "rotation_degrees": degrees}))
    originals = ["hand_src.jpg", "hand_dst.jpg", "palm_up.jpg", "clock_hands.jpeg", "composite_src_dst.png",
                 "composite_mirrored.png"]
    for canned in ({"category_allowlist": ["Thumb_Up"]}, {"category_denylist": ["None"]}, {"score_threshold": 0.9},
                   {"max_results": 1}):
        plan += [(f, "standard", {"num_hands": 2, "canned": canned}) for f in originals]
    plan += [(f, "custom", {"num_hands": 2}) for f in files]
    plan += [(f, "custom", {"num_hands": 2, "custom": {"score_threshold": 0.0}}) for f in files]
    return plan


def options_record(options):
    return {"num_hands": options["num_hands"], "rotation_degrees": options.get("rotation_degrees", 0),
            "canned": options.get("canned", {}), "custom": options.get("custom", {})}


def image_runs(images):
    tasks = {}
    runs = []
    for file, bundle, options in image_plan(images):
        key = json.dumps([bundle, options_record(options)["num_hands"], options.get("canned"), options.get("custom")],
                         sort_keys=True)
        if key not in tasks:
            tasks[key] = recognizer(bundle, vision.RunningMode.IMAGE, options)
        image = load(os.path.join(HANDS_DIR, file))
        rotation = options.get("rotation_degrees", 0)
        if rotation:
            result = tasks[key].recognize(image, ImageProcessingOptions(rotation_degrees=rotation))
        else:
            result = tasks[key].recognize(image)
        runs.append({"image": file, "bundle": bundle, "width": image.width, "height": image.height,
                     "options": options_record(options), **result_record(result)})
    for task in tasks.values():
        task.close()
    return runs


def video_runs(frames):
    runs = []
    for bundle, num_hands in (("standard", 1), ("standard", 2), ("custom", 1)):
        options = {"num_hands": num_hands}
        records = []
        with recognizer(bundle, vision.RunningMode.VIDEO, options) as task:
            for frame in frames:
                result = task.recognize_for_video(load(os.path.join(HANDS_DIR, frame["file"])), frame["timestamp_ms"])
                records.append({"image": frame["file"], "timestamp_ms": frame["timestamp_ms"],
                                **result_record(result)})
        runs.append({"bundle": bundle, "options": options_record(options), "frames": records})
    return runs


def bundle_records():
    records = {}
    for name, path in BUNDLES.items():
        with open(os.path.join(REPO_ROOT, path), "rb") as f:
            data = f.read()
        members = {}
        with zipfile.ZipFile(io.BytesIO(data)) as outer:
            for member in sorted(outer.namelist()):
                inner_bytes = outer.read(member)
                with zipfile.ZipFile(io.BytesIO(inner_bytes)) as inner:
                    members[member] = {n: sha256(inner.read(n)) for n in sorted(inner.namelist())}
        records[name] = {"path": path, "sha256": sha256(data), "members_sha256": members}
    return records


CANNED_LABELS = ["None", "Closed_Fist", "Open_Palm", "Pointing_Up", "Thumb_Down", "Thumb_Up", "Victory", "ILoveYou"]


def write_wrong_classifier():
    """A [1,128] -> [1,5] classifier carrying 8 labels in its metadata."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import tflite_builder as tb
    from mediapipe.tasks.python.metadata.metadata_writers import metadata_writer
    builder = tb.ModelBuilder("PureVision test: classifier with 5 outputs and 8 labels")
    x = builder.input([1, 128], name="hand_embedding")
    logits = tb.add_fully_connected(builder, x, np.random.default_rng(19), 5)
    model = builder.finish([tb.add_softmax(builder, logits)])
    writer = metadata_writer.MetadataWriter.create(bytes(model))
    writer.add_feature_input(name="hand_embedding")
    writer.add_classification_output(metadata_writer.Labels().add(CANNED_LABELS))
    # The labels ZIP the writer appends stamps its entries with the current time: pin it so re-runs are identical.
    with mock.patch("time.localtime", return_value=time.struct_time((1980, 1, 1, 0, 0, 0, 1, 1, 0))):
        data, _ = writer.populate()
    with open(os.path.join(OUT_DIR, "classifier_5_outputs_8_labels.tflite"), "wb") as f:
        f.write(data)


def summary(run):
    names = [g[0]["category_name"] if g else "-" for g in run["gestures"]]
    return f"{len(run['hands'])} hands, gestures {names}"


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    with open(os.path.join(HANDS_DIR, "images.json")) as f:
        images = json.load(f)["images"]
    with open(os.path.join(HANDS_DIR, "video", "frames.json")) as f:
        frames = json.load(f)["frames"]
    header = {
        "command": COMMAND,
        "versions": {"mediapipe": mp.__version__, "numpy": np.__version__, "pillow": PIL.__version__,
                     "python": sys.version.split()[0]},
        "bundles": bundle_records(), "graph_facts": FACTS,
        "conventions": "Images are files under Fixtures/hands, decoded with PIL (RGB). Landmarks normalized to the "
                       "unrotated input image; world landmarks in metres. gestures[i] is MediaPipe's i-th gesture "
                       "list (one Category, index -1); hands[i] is its i-th hand. rotation_degrees is "
                       "ImageProcessingOptions.rotation_degrees (clockwise). canned / custom hold the "
                       "ClassifierOptions fields that were set (Python names); empty means the Python defaults.",
    }
    write_wrong_classifier()
    still = image_runs(images)
    write_json(os.path.join(OUT_DIR, "gestures_image.json"), {
        **header, "api": "mediapipe.tasks.python.vision.GestureRecognizer, RunningMode.IMAGE, recognize(image[, "
                         "ImageProcessingOptions(rotation_degrees)])", "results": still})
    video = video_runs(frames)
    write_json(os.path.join(OUT_DIR, "gestures_video.json"), {
        **header, "api": "GestureRecognizer, RunningMode.VIDEO, recognize_for_video(image, timestamp_ms), one fresh "
                         "task per run, frames in order", "runs": video})
    for run in still:
        print(f"{run['bundle']:8s} {run['image']:30s} {json.dumps(run['options'])}: {summary(run)}")
    for run in video:
        counts = {}
        for frame in run["frames"]:
            for g in frame["gestures"]:
                counts[g[0]["category_name"]] = counts.get(g[0]["category_name"], 0) + 1
        print(f"video {run['bundle']} n={run['options']['num_hands']}: {counts}")


if __name__ == "__main__":
    main()
