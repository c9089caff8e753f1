"""MediaPipe ObjectDetector goldens in Tests/PureVisionTests/Fixtures/detector/.

Images: the five object photos and the four photos with people of the shared testdata (permissive licences, see
its SOURCES.md), each decoded by PIL, converted to RGB, reduced (PIL bilinear) so its longer side is at most 400 px
and saved as PNG, so every decoder sees the same pixels. `images.json` holds their sources and sizes. The embedder
goldens (tools/make_embedder_goldens.py) use the same PNGs.

Goldens (`detector_efficientdet.json`): MediaPipe Tasks `ObjectDetector` 0.10.14, IMAGE mode, with
`Models/efficientdet_lite0.tflite`, on every image:
- default options (no limit, score threshold unset = 0: every NMS survivor, ~1-2k per image), stored compactly as
  rows [origin_x, origin_y, width, height, score, category_name];
- max_results 5 + score_threshold 0.3;
- max_results 5 + score_threshold 0.1 with rotation_degrees 90 (two images);
- an allowlist (person, cat, bear, orange, an unknown name) with score_threshold 0.05;
- a denylist (person) with max_results 5;
- an allowlist of unknown names only with max_results 5 (MediaPipe then applies no filter).
`errors`: what MediaPipe raises for max_results 0, allowlist + denylist, and a region of interest.

Run from the repository root: `python3 tools/make_detector_goldens.py`.
"""

import json
import os
import sys

import numpy as np
import PIL
from PIL import Image

import mediapipe as mp
from mediapipe.tasks.python import vision
from mediapipe.tasks.python.core.base_options import BaseOptions
from mediapipe.tasks.python.components.containers.rect import Rect as RectF
from mediapipe.tasks.python.vision.core.image_processing_options import ImageProcessingOptions

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(REPO_ROOT, "Tests", "PureVisionTests", "Fixtures", "detector")
MODEL = os.path.join(REPO_ROOT, "Models", "efficientdet_lite0.tflite")
# The original photos (people/ and objects/ are not all committed at full size): PUREVISION_TESTDATA names the folder
# of the shared test photos (the layout of the committed Tests/PureVisionImageTests/Fixtures/photos/ plus people/).
PHOTO_DIR = os.environ.get("PUREVISION_TESTDATA", "")
if not PHOTO_DIR:
    raise SystemExit("set PUREVISION_TESTDATA to the folder of the shared test photos (faces/, hands/, objects/, people/)")
MAX_SIDE = 400
COMMAND = "python3 tools/make_detector_goldens.py"

PHOTOS = [
    ("objects", "gcompris_polar_bear.jpg", "Debian gcompris-qt-data 3.1 (from Wikimedia), public domain"),
    ("objects", "opencvdoc_orange.jpg", "Debian opencv-doc 4.6.0, Apache-2.0 AND BSD-3-Clause"),
    ("objects", "opencvdoc_space_shuttle.jpg", "Debian opencv-doc 4.6.0, Apache-2.0 AND BSD-3-Clause"),
    ("objects", "skimage_chelsea.png", "Debian python3-skimage 0.19.3, CC0"),
    ("objects", "skimage_coffee.png", "Debian python3-skimage 0.19.3, CC0"),
    ("people", "fr_obama.jpg", "PyPI face_recognition 1.3.0 tests, public domain (US government work)"),
    ("people", "skimage_camera.png", "PyPI scikit-image 0.26.0, CC0"),
    ("people", "opencv_basketball1.png", "Debian opencv-doc 4.6.0, Apache-2.0 AND BSD-3-Clause"),
    ("people", "sports2d_frame020.png", "PyPI sports2d 0.8.34 (frame 20 of the demo video), BSD-3-Clause"),
]
ROTATED = ["skimage_chelsea.png", "opencv_basketball1.png"]


def reduce(img):
    w, h = img.size
    scale = MAX_SIDE / max(w, h)
    if scale >= 1:
        return img
    return img.resize((max(1, round(w * scale)), max(1, round(h * scale))), Image.Resampling.BILINEAR)


def make_images():
    entries = []
    for folder, file, source in PHOTOS:
        img = Image.open(os.path.join(PHOTO_DIR, folder, file)).convert("RGB")
        reduced = reduce(img)
        name = os.path.splitext(file)[0] + ".png"
        reduced.save(os.path.join(OUT_DIR, name), format="PNG", optimize=True)
        entries.append({"file": name, "source": f"testdata/{folder}/{file}: {source}",
                        "derivation": f"PIL decode, RGB, bilinear resize of {img.size[0]}x{img.size[1]} to longer "
                                      f"side <= {MAX_SIDE}, PNG",
                        "width": reduced.size[0], "height": reduced.size[1]})
    return entries


def detector(**options):
    return vision.ObjectDetector.create_from_options(vision.ObjectDetectorOptions(
        base_options=BaseOptions(model_asset_path=MODEL), running_mode=vision.RunningMode.IMAGE, **options))


def load(name):
    rgb = np.ascontiguousarray(np.asarray(Image.open(os.path.join(OUT_DIR, name)).convert("RGB")))
    return mp.Image(image_format=mp.ImageFormat.SRGB, data=rgb)


def rows(result):
    out = []
    for d in result.detections:
        b = d.bounding_box
        assert len(d.categories) == 1, "dedup merged categories"
        c = d.categories[0]
        out.append([b.origin_x, b.origin_y, b.width, b.height, float(c.score), c.category_name])
    return out


def runs(images):
    plan = [
        ({}, 0, None),
        ({"max_results": 5, "score_threshold": 0.3}, 0, None),
        ({"category_allowlist": ["person", "cat", "bear", "orange", "no such label"], "score_threshold": 0.05}, 0,
         None),
        ({"category_denylist": ["person"], "max_results": 5}, 0, None),
        ({"category_allowlist": ["no such label", "Person"], "max_results": 5}, 0, None),
        ({"max_results": 5, "score_threshold": 0.1}, 90, ROTATED),
    ]
    out = []
    for options, rotation, only in plan:
        task = detector(**options)
        for entry in images:
            if only is not None and entry["file"] not in only:
                continue
            processing = ImageProcessingOptions(rotation_degrees=rotation) if rotation else None
            result = task.detect(load(entry["file"]), processing)
            recorded = dict(options)
            if rotation:
                recorded["rotation_degrees"] = rotation
            out.append({"image": entry["file"], "options": recorded, "detections": rows(result)})
        task.close()
    return out


def error_facts():
    facts = []
    for options in ({"max_results": 0}, {"category_allowlist": ["cat"], "category_denylist": ["dog"]}):
        try:
            detector(**options).close()
            facts.append({"options": options, "error": None})
        except Exception as error:
            facts.append({"options": options, "error_type": type(error).__name__, "error": str(error)})
    task = detector()
    try:
        task.detect(load(PHOTOS[0][1].replace(".jpg", ".png")),
                    ImageProcessingOptions(region_of_interest=RectF(left=0.1, top=0.1, right=0.5, bottom=0.5)))
        facts.append({"options": {"region_of_interest": [0.1, 0.1, 0.5, 0.5]}, "error": None})
    except Exception as error:
        facts.append({"options": {"region_of_interest": [0.1, 0.1, 0.5, 0.5]}, "error_type": type(error).__name__,
                      "error": str(error)})
    task.close()
    return facts


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    images = make_images()
    header = {"command": COMMAND, "versions": {"mediapipe": mp.__version__, "numpy": np.__version__,
                                               "pillow": PIL.__version__, "python": sys.version.split()[0]}}
    with open(os.path.join(OUT_DIR, "images.json"), "w") as f:
        json.dump({**header, "images": images}, f, indent=1)
        f.write("\n")
    payload = {**header, "model": "Models/efficientdet_lite0.tflite",
               "row": ["origin_x", "origin_y", "width", "height", "score", "category_name"],
               "runs": runs(images), "errors": error_facts()}
    with open(os.path.join(OUT_DIR, "detector_efficientdet.json"), "w") as f:
        json.dump(payload, f, separators=(",", ":"))
        f.write("\n")
    print(f"{len(payload['runs'])} runs, {sum(len(r['detections']) for r in payload['runs'])} detections")


if __name__ == "__main__":
    main()
