#!/usr/bin/env python3
"""Score-calibration goldens for the IDENTITY and INVERSE_LOGISTIC transformations (LOG is covered by
`make_classifier_goldens.py`'s `tiny_meta.tflite`).

Writes Tests/PureVisionTests/Fixtures/classifier/calibration/: `tiny_identity.tflite` and
`tiny_inverse_logistic.tflite` (the tiny 6-class graph of make_classifier_goldens.py, seed 7, with MediaPipe
image-classifier metadata: mean 0, std 255, labels, and a score calibration of the named transformation: one class
without parameters (the third), the sixth from the file's final line break, two with a min_score, default score 0.25), and `calibration.json`: MediaPipe Tasks 0.10.14
ImageClassifier (IMAGE mode, default options) on `../tiny_quadrants.png`, plus LiteRT's raw (uncalibrated) scores.
Deterministic: a re-run rewrites identical bytes.

Run from the repository root:  python3 tools/make_calibration_goldens.py
"""

import hashlib
import json
import os
import sys
import time
import zipfile

import mediapipe as mp
import numpy as np
from mediapipe.tasks.metadata import metadata_schema_py_generated as mschema
from mediapipe.tasks.python.metadata.metadata_writers import image_classifier as ic_writer
from mediapipe.tasks.python.metadata.metadata_writers import metadata_writer
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_classifier_goldens as mcg  # noqa: E402
import pvtools  # noqa: E402

OUT_DIR = os.path.join(mcg.OUT_DIR, "calibration")
COMMAND = "python3 tools/make_calibration_goldens.py"

# Parameters (scale, slope, offset[, min_score]); None = an empty line (the default score). Softmax scores of the
# tiny graph lie in (0, 1), where the inverse logistic is defined. The writer ends the file with a line break, which
# MediaPipe (and PureVision) read as one more, empty line: five lines give the six classes.
PARAMETERS = [(1.0, 2.0, 0.5), (0.9, 1.5, -0.2, 0.3), None, (1.0, 0.5, 1.0), (0.7, -1.0, 0.2, 0.05)]
TRANSFORMATIONS = {
    "tiny_identity.tflite": mschema.ScoreTransformationType.IDENTITY,
    "tiny_inverse_logistic.tflite": mschema.ScoreTransformationType.INVERSE_LOGISTIC,
}


class _FixedClock:
    """`time` for zipfile: every entry the metadata writer appends gets the ZIP epoch, so re-runs are identical."""

    def __getattr__(self, name):
        return getattr(time, name)

    @staticmethod
    def time():
        return 315532800.0  # 1980-01-01T00:00:00Z

    @staticmethod
    def localtime(seconds=None):
        return time.gmtime(315532800)


zipfile.time = _FixedClock()


def model(transformation):
    parameters = [None if p is None else metadata_writer.CalibrationParameter(*p) for p in PARAMETERS]
    writer = ic_writer.MetadataWriter.create(
        bytearray(mcg.tiny_graph(7, classes=6)), input_norm_mean=[0.0], input_norm_std=[255.0],
        labels=metadata_writer.Labels().add(mcg.TINY_LABELS),
        score_calibration=metadata_writer.ScoreCalibration(transformation, parameters, default_score=0.25))
    data, _ = writer.populate()
    return bytes(data)


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    rgb = np.asarray(Image.open(os.path.join(mcg.OUT_DIR, "tiny_quadrants.png")).convert("RGB"))
    image = mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(rgb))
    interp = pvtools.reference_interpreter(model_content=mcg.tiny_graph(7, classes=6))
    interp.allocate_tensors()
    interp.set_tensor(interp.get_input_details()[0]["index"], (rgb.astype(np.float32) / 255)[None])
    interp.invoke()
    raw = [float(v) for v in interp.get_tensor(interp.get_output_details()[0]["index"])[0]]
    runs = []
    for name, transformation in TRANSFORMATIONS.items():
        data = model(transformation)
        with open(os.path.join(OUT_DIR, name), "wb") as f:
            f.write(data)
        task = mcg.classifier(os.path.join(OUT_DIR, name))
        result = task.classify(image)
        task.close()
        runs.append({"model": name, "transformation": name[len("tiny_"):-len(".tflite")],
                     "model_sha256": hashlib.sha256(data).hexdigest(),
                     "classifications": mcg.encode(result)})
        print(name, [(c["category_name"], round(c["score"], 6)) for c in runs[-1]["classifications"][0]["categories"]])
    payload = {
        "command": COMMAND, "mediapipe": mp.__version__, "image": "../tiny_quadrants.png",
        "parameters": [None if p is None else list(p) for p in PARAMETERS], "default_score": 0.25,
        "raw_scores": raw, "runs": runs,
    }
    with open(os.path.join(OUT_DIR, "calibration.json"), "w") as f:
        json.dump(payload, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
