"""MediaPipe face detector goldens in Tests/PureVisionTests/Fixtures/faces/.

Images: the three committed-safe face photos (copied byte for byte) and images derived from them with PIL
(lossless transposes, bilinear rotations on an expanded black canvas, bilinear downscales, composites), saved as
PNG so every decoder gets the same pixels. `images.json` describes each image and holds two SHA-256 digests of
its decoded RGB bytes: MediaPipe's own loader (`mp.Image.create_from_file`) and PIL, so a test can check that
both decoders agree on every fixture.

Goldens:
- `faces_short_range.json`: MediaPipe Tasks `FaceDetector` (IMAGE mode, the short-range model) on every image
  with default options, plus non-default thresholds on a few images and `ImageProcessingOptions` rotations on
  the upright photos. Boxes are MediaPipe's integer pixels; keypoints are normalized.
- `faces_full_range_legacy.json`: the legacy `mp.solutions.face_detection.FaceDetection(model_selection=1)`
  (the sparse full-range model) on the same images as PIL-decoded RGB arrays; relative boxes and keypoints.

Run from the repository root: `python3 tools/make_face_goldens.py`.
"""

import hashlib
import json
import os
import shutil
import sys

import cv2
import numpy as np
import PIL
from PIL import Image

import mediapipe as mp
from mediapipe.tasks.python import vision
from mediapipe.tasks.python.core.base_options import BaseOptions
from mediapipe.tasks.python.vision.core.image_processing_options import ImageProcessingOptions

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(REPO_ROOT, "Tests", "PureVisionTests", "Fixtures", "faces")
SHORT_RANGE_MODEL = os.path.join("Models", "face_detection_short_range.tflite")
# The committed copies of the source photos (faces/, hands/, objects/ as in the test-data folder they came from);
# PUREVISION_TESTDATA may point at another folder of the same layout.
PHOTO_DIR = os.environ.get(
    "PUREVISION_TESTDATA", os.path.join(REPO_ROOT, "Tests", "PureVisionImageTests", "Fixtures", "photos"))

# (fixture stem, file under testdata/faces, source line from testdata/SOURCES.md)
PHOTOS = [
    ("grace_hopper", "matplotlib_grace_hopper.jpg",
     "Debian python-matplotlib-data 3.6.3, mpl-data/sample_data/grace_hopper.jpg (public domain)"),
    ("astronaut", "skimage_astronaut.png",
     "Debian python3-skimage 0.19.3, skimage/data/astronaut.png (public domain, NASA)"),
    ("opencvdoc_face", "opencvdoc_230501201_1.jpg",
     "Debian opencv-doc 4.6.0 (Apache-2.0 AND BSD-3-Clause)"),
]

# Derived rotations and scalings start from the photo reduced (bilinear) so its longer side is at most this,
# which keeps the committed fixtures small; the face still fills far more than the detector's 128-px input.
DERIVE_MAX_SIDE = 256
GRAY = (128, 128, 128)

COMMAND = "python3 tools/make_face_goldens.py"


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def fit_long_side(img, max_side):
    w, h = img.size
    scale = max_side / max(w, h)
    if scale >= 1:
        return img
    return img.resize((max(1, round(w * scale)), max(1, round(h * scale))), Image.Resampling.BILINEAR)


def scaled(img, factor):
    w, h = img.size
    return img.resize((max(1, round(w * factor)), max(1, round(h * factor))), Image.Resampling.BILINEAR)


def save_png(img, name):
    img.save(os.path.join(OUT_DIR, name), format="PNG", optimize=True)


def make_images():
    """Writes every input image into OUT_DIR; returns [{file, source, derivation}] in a fixed order."""
    images = []
    decoded = {}
    for stem, file, source in PHOTOS:
        ext = os.path.splitext(file)[1]
        name = stem + ext
        shutil.copyfile(os.path.join(PHOTO_DIR, "faces", file), os.path.join(OUT_DIR, name))
        images.append({"file": name, "source": source, "derivation": "original file, byte for byte"})
        decoded[stem] = Image.open(os.path.join(OUT_DIR, name)).convert("RGB")

    transposes = [
        (90, Image.Transpose.ROTATE_90), (180, Image.Transpose.ROTATE_180), (270, Image.Transpose.ROTATE_270)]
    for stem, _, _ in PHOTOS:
        photo = decoded[stem]
        base = fit_long_side(photo, DERIVE_MAX_SIDE)
        base_note = f"PIL bilinear resize of the decoded original to longer side {max(base.size)} ({base.size[0]}x" \
                    f"{base.size[1]})" if base.size != photo.size else "the decoded original"
        for degrees, op in transposes:
            name = f"{stem}_rot{degrees}.png"
            save_png(base.transpose(op), name)
            images.append({"file": name, "source": stem, "derivation":
                           f"{base_note}, then rotated {degrees} degrees counter-clockwise (lossless transpose)"})
        for degrees in (20, -20, 45, -45):
            name = f"{stem}_rot{'p' if degrees > 0 else 'm'}{abs(degrees)}.png"
            save_png(base.rotate(degrees, resample=Image.Resampling.BILINEAR, expand=True, fillcolor=(0, 0, 0)),
                     name)
            images.append({"file": name, "source": stem, "derivation":
                           f"{base_note}, then PIL rotate({degrees}) (counter-clockwise for positive angles), "
                           "bilinear, expand=True, black fill"})
        for percent in (50, 25):
            name = f"{stem}_scale{percent}.png"
            save_png(scaled(photo, percent / 100), name)
            images.append({"file": name, "source": stem, "derivation":
                           f"PIL bilinear resize of the decoded original to {percent}%"})

    # Two faces side by side, each scaled to height 256, on a black canvas with a 16-px gap.
    left = decoded["grace_hopper"].resize((round(512 * 256 / 600), 256), Image.Resampling.BILINEAR)
    right = decoded["astronaut"].resize((256, 256), Image.Resampling.BILINEAR)
    canvas = Image.new("RGB", (left.size[0] + 16 + right.size[0] + 32, 320), (0, 0, 0))
    canvas.paste(left, (16, 32))
    canvas.paste(right, (16 + left.size[0] + 16, 32))
    save_png(canvas, "composite_two_faces.png")
    images.append({"file": "composite_two_faces.png", "source": "grace_hopper, astronaut", "derivation":
                   "grace_hopper resized to 218x256 at (16, 32) and astronaut resized to 256x256 at (250, 32), "
                   "PIL bilinear, on a 522x320 black canvas"})

    # Two head-and-shoulders crops side by side, large enough for the short-range model to find both.
    left = decoded["grace_hopper"].crop((68, 43, 468, 443)).resize((160, 160), Image.Resampling.BILINEAR)
    right = decoded["astronaut"].crop((114, 20, 334, 240)).resize((160, 160), Image.Resampling.BILINEAR)
    canvas = Image.new("RGB", (352, 192), (0, 0, 0))
    canvas.paste(left, (8, 16))
    canvas.paste(right, (184, 16))
    save_png(canvas, "composite_two_face_crops.png")
    images.append({"file": "composite_two_face_crops.png", "source": "grace_hopper, astronaut", "derivation":
                   "grace_hopper crop (68, 43, 468, 443) and astronaut crop (114, 20, 334, 240), each resized to "
                   "160x160 (PIL bilinear), at (8, 16) and (184, 16) on a 352x192 black canvas"})

    # One small face in the top-left corner of a larger gray canvas.
    small = decoded["astronaut"].crop((114, 20, 334, 240)).resize((160, 160), Image.Resampling.BILINEAR)
    canvas = Image.new("RGB", (480, 360), GRAY)
    canvas.paste(small, (8, 8))
    save_png(canvas, "composite_small_corner_gray.png")
    images.append({"file": "composite_small_corner_gray.png", "source": "astronaut", "derivation":
                   "astronaut crop (114, 20, 334, 240) resized to 160x160 (PIL bilinear) at (8, 8) on a 480x360 "
                   "canvas of gray 128"})

    # One small face in the bottom-right corner of a larger black canvas.
    small = fit_long_side(decoded["opencvdoc_face"], 144)
    canvas = Image.new("RGB", (400, 400), (0, 0, 0))
    origin = (400 - small.size[0] - 8, 400 - small.size[1] - 8)
    canvas.paste(small, origin)
    save_png(canvas, "composite_small_corner_black.png")
    images.append({"file": "composite_small_corner_black.png", "source": "opencvdoc_face", "derivation":
                   f"opencvdoc_face resized to {small.size[0]}x{small.size[1]} (PIL bilinear) at {origin} on a "
                   "400x400 black canvas"})
    return images


def describe_images(images):
    """Adds size, file digest and the two decoders' RGB digests to each image entry."""
    for entry in images:
        path = os.path.join(OUT_DIR, entry["file"])
        with open(path, "rb") as f:
            entry["file_sha256"] = sha256(f.read())
        mp_rgb = np.ascontiguousarray(np.asarray(mp.Image.create_from_file(path).numpy_view()))
        pil_rgb = np.ascontiguousarray(np.asarray(Image.open(path).convert("RGB")))
        entry["width"] = int(pil_rgb.shape[1])
        entry["height"] = int(pil_rgb.shape[0])
        entry["mediapipe_shape"] = list(mp_rgb.shape)
        entry["mediapipe_rgb_sha256"] = sha256(mp_rgb.tobytes())
        entry["pil_rgb_sha256"] = sha256(pil_rgb.tobytes())
        cv_rgb = np.ascontiguousarray(cv2.imread(path, cv2.IMREAD_COLOR)[:, :, ::-1])
        entry["opencv_rgb_sha256"] = sha256(cv_rgb.tobytes())
        agree = mp_rgb.shape == pil_rgb.shape and entry["mediapipe_rgb_sha256"] == entry["pil_rgb_sha256"]
        entry["decoders_agree"] = agree
        if not agree and mp_rgb.shape == pil_rgb.shape:
            diff = np.abs(mp_rgb.astype(np.int32) - pil_rgb.astype(np.int32))
            entry["decoder_max_abs_diff"] = int(diff.max())
            entry["decoder_differing_bytes"] = int(np.count_nonzero(diff))
    return images


def task_detector(min_detection_confidence, min_suppression_threshold):
    options = vision.FaceDetectorOptions(
        base_options=BaseOptions(model_asset_path=os.path.join(REPO_ROOT, SHORT_RANGE_MODEL)),
        running_mode=vision.RunningMode.IMAGE,
        min_detection_confidence=min_detection_confidence,
        min_suppression_threshold=min_suppression_threshold)
    return vision.FaceDetector.create_from_options(options)


def task_detections(result):
    out = []
    for d in result.detections:
        box = d.bounding_box
        out.append({
            "bounding_box": {"origin_x": box.origin_x, "origin_y": box.origin_y,
                             "width": box.width, "height": box.height},
            "score": float(d.categories[0].score),
            "category_index": d.categories[0].index,
            "keypoints": [[float(k.x), float(k.y)] for k in d.keypoints],
        })
    return out


def short_range_runs(images):
    """Default options on every image, then the option and rotation variants."""
    by_name = {e["file"]: e for e in images}
    plan = [(e["file"], 0.5, 0.3, 0, "mediapipe") for e in images]
    for name in ("astronaut.png", "composite_two_face_crops.png"):
        plan += [(name, conf, supp, 0, "mediapipe")
                 for conf, supp in ((0.3, 0.3), (0.8, 0.3), (0.5, 0.5), (0.1, 0.3), (0.1, 0.5))]
    for stem, file, _ in PHOTOS:
        name = stem + os.path.splitext(file)[1]
        plan += [(name, 0.5, 0.3, rotation, "mediapipe") for rotation in (90, -90, 180)]
    # The transposed copies, turned back upright by the rotation option (the image is turned counter-clockwise,
    # rotation_degrees is clockwise).
    for stem, _, _ in PHOTOS:
        plan += [(f"{stem}_rot{degrees}.png", 0.5, 0.3, degrees, "mediapipe") for degrees in (90, 180, 270)]
    # Where MediaPipe's loader and PIL (libjpeg-turbo) decode differently, the same image as PIL decodes it.
    plan += [(e["file"], 0.5, 0.3, 0, "pil") for e in images if not e["decoders_agree"]]

    detectors = {}
    runs = []
    for name, min_conf, min_supp, rotation, decoder in plan:
        key = (min_conf, min_supp)
        if key not in detectors:
            detectors[key] = task_detector(min_conf, min_supp)
        path = os.path.join(OUT_DIR, name)
        if decoder == "pil":
            rgb = np.ascontiguousarray(np.asarray(Image.open(path).convert("RGB")))
            image = mp.Image(image_format=mp.ImageFormat.SRGB, data=rgb)
        else:
            image = mp.Image.create_from_file(path)
        if rotation:
            result = detectors[key].detect(image, ImageProcessingOptions(rotation_degrees=rotation))
        else:
            result = detectors[key].detect(image)
        runs.append({
            "image": name, "decoder": decoder, "width": by_name[name]["width"], "height": by_name[name]["height"],
            "options": {"min_detection_confidence": min_conf, "min_suppression_threshold": min_supp,
                        "rotation_degrees": rotation},
            "detections": task_detections(result),
        })
    for detector in detectors.values():
        detector.close()
    return runs


def full_range_runs(images):
    """min_detection_confidence 0.5 on every image, then 0.01 and 0.95 on two images (see LEGACY_FULL_RANGE_FACTS)."""
    plan = [(e, 0.5) for e in images]
    plan += [(e, conf) for conf in (0.01, 0.95) for e in images
             if e["file"] in ("astronaut.png", "composite_two_faces.png")]
    detectors = {}
    runs = []
    for entry, conf in plan:
        if conf not in detectors:
            detectors[conf] = mp.solutions.face_detection.FaceDetection(
                model_selection=1, min_detection_confidence=conf)
        rgb = np.ascontiguousarray(np.asarray(Image.open(os.path.join(OUT_DIR, entry["file"])).convert("RGB")))
        result = detectors[conf].process(rgb)
        detections = []
        for d in result.detections or []:
            box = d.location_data.relative_bounding_box
            detections.append({
                "relative_bounding_box": {"xmin": box.xmin, "ymin": box.ymin,
                                          "width": box.width, "height": box.height},
                "score": float(d.score[0]),
                "label_id": int(d.label_id[0]) if len(d.label_id) else None,
                "relative_keypoints": [[k.x, k.y] for k in d.location_data.relative_keypoints],
            })
        runs.append({"image": entry["file"], "decoder": "pil", "width": entry["width"], "height": entry["height"],
                     "options": {"model_selection": 1, "min_detection_confidence": conf},
                     "detections": detections})
    for detector in detectors.values():
        detector.close()
    return runs


def versions():
    return {"mediapipe": mp.__version__, "numpy": np.__version__, "pillow": PIL.__version__,
            "opencv": cv2.__version__,
            "python": sys.version.split()[0]}


LEGACY_FULL_RANGE_FACTS = {
    "graph": "mediapipe/modules/face_detection/face_detection_full_range_cpu.binarypb in the mediapipe wheel "
             "(FaceDetectionFullRangeCpu: FaceDetectionFullRange with an XNNPACK delegate, no ROI input, so the "
             "whole image)",
    "model": "mediapipe/modules/face_detection/face_detection_full_range_sparse.tflite (the wheel's copy; same "
             "bytes as Models/face_detection_full_range_sparse.tflite when model_sha256 matches)",
    "tensor": "192x192, float range [-1, 1], keep_aspect_ratio true (letterbox), BORDER_ZERO "
              "(ImageToTensorCalculator in face_detection.pbtxt)",
    "anchors": "SsdAnchors: num_layers 1, strides [4], min_scale 0.1484375, max_scale 0.75, anchor offset 0.5, "
               "aspect_ratios [1.0], fixed_anchor_size true, interpolated_scale_aspect_ratio 0.0 -> 2304 anchors",
    "decode": "TensorsToDetections: 1 class, 16 coords, box offset 0, keypoint offset 4, 6 keypoints x 2 values, "
              "reverse_output_order (XYWH), x/y/w/h scale 192, sigmoid, score clipping 100",
    "min_score_thresh": "0.6 in face_detection_full_range.pbtxt. The Python solution passes "
                        "min_detection_confidence as FaceDetectionOptions.min_score_thresh in the graph options, but "
                        "observed with 0.10.14 it has no effect: 0.01, 0.5 and 0.95 give identical detections (the "
                        "0.01 and 0.95 runs below), and no recorded score is below 0.6, so 0.6 is what applies",
    "nms": "NonMaxSuppression: WEIGHTED, INTERSECTION_OVER_UNION, min_suppression_threshold 0.3",
    "projection": "DetectionProjectionCalculator with ImageToTensor's MATRIX (undoes the letterbox); output in "
                  "relative (normalized) coordinates, not clamped",
    "sources": "google-ai-edge/mediapipe mediapipe/modules/face_detection/face_detection_full_range.pbtxt and "
               "face_detection.pbtxt; mediapipe/python/solutions/face_detection.py in the 0.10.14 wheel",
}


def model_sha256(path):
    with open(path, "rb") as f:
        return sha256(f.read())


def write_json(name, payload):
    with open(os.path.join(OUT_DIR, name), "w") as f:
        json.dump(payload, f, indent=1)
        f.write("\n")


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    images = describe_images(make_images())
    header = {"command": COMMAND, "versions": versions()}
    write_json("images.json", {**header, "note": "RGB digests are over the decoded H x W x 3 uint8 bytes, "
                               "row-major; mediapipe = mp.Image.create_from_file(path).numpy_view(), pil = "
                               "PIL.Image.open(path).convert('RGB'), opencv = cv2.imread(path) as RGB "
                               "(informational: a third libjpeg-turbo build). Derived images are made from the PIL "
                               "decode.", "images": images})

    short = short_range_runs(images)
    write_json("faces_short_range.json", {
        **header,
        "api": "mediapipe.tasks.python.vision.FaceDetector, RunningMode.IMAGE, input mp.Image.create_from_file",
        "model": SHORT_RANGE_MODEL,
        "model_sha256": model_sha256(os.path.join(REPO_ROOT, SHORT_RANGE_MODEL)),
        "conventions": "bounding_box in integer pixels of the (unrotated) input image; keypoints normalized to the "
                       "input image; rotation_degrees is ImageProcessingOptions.rotation_degrees (clockwise); "
                       "decoder 'mediapipe' = "
                       "mp.Image.create_from_file, 'pil' = mp.Image(SRGB, PIL's RGB decode), run only where the "
                       "two decoders differ (see images.json)",
        "results": short,
    })

    wheel_model = os.path.join(os.path.dirname(mp.__file__), "modules", "face_detection",
                               "face_detection_full_range_sparse.tflite")
    full = full_range_runs(images)
    write_json("faces_full_range_legacy.json", {
        **header,
        "api": "mediapipe.solutions.face_detection.FaceDetection(model_selection=1, min_detection_confidence=0.5)"
               ", process(RGB uint8 array decoded by PIL)",
        "model_sha256": model_sha256(wheel_model),
        "graph_facts": LEGACY_FULL_RANGE_FACTS,
        "results": full,
    })

    for run in short:
        opts = run["options"]
        print(f"short  {run['image']:40s} conf={opts['min_detection_confidence']} "
              f"supp={opts['min_suppression_threshold']} rot={opts['rotation_degrees']:4d} {run['decoder']:9s}: "
              f"{len(run['detections'])} [{', '.join(format(d['score'], '.3f') for d in run['detections'])}]")
    for run in full:
        print(f"full   {run['image']:40s} conf={run['options']['min_detection_confidence']}: "
              f"{len(run['detections'])} "
              f"[{', '.join(format(d['score'], '.3f') for d in run['detections'])}]")
    for entry in images:
        if not entry["decoders_agree"]:
            print(f"decoders differ on {entry['file']}: max {entry.get('decoder_max_abs_diff')} "
                  f"over {entry.get('decoder_differing_bytes')} bytes")


if __name__ == "__main__":
    main()
