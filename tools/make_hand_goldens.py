"""MediaPipe hand landmarker goldens in Tests/PureVisionTests/Fixtures/hands/.

Images: the four committed-safe hand photos (copied byte for byte) and images derived from them with PIL
(lossless transposes, bilinear rotations on an expanded black canvas, bilinear downscales, composites), saved as
PNG so every decoder gets the same pixels. `images.json` describes each image and holds the SHA-256 digests of its
decoded RGB bytes (MediaPipe's own loader, PIL, OpenCV), so a test can check which decoders agree.

Video: a deterministic sequence of PNG frames (`video/frame_NNN.png`): the handSrc photo, reduced, turned by a
growing angle and moved a little further on every frame over a fixed-color canvas, with the handDst photo in its
place for a few frames halfway. `video/frames.json` describes each frame the way `images.json` does.

Goldens (MediaPipe Tasks `HandLandmarker`, `Models/hand_landmarker.task`):
- `hands_image.json`: IMAGE mode on every image with default options (num_hands 1) and with num_hands 2, plus
  `ImageProcessingOptions` rotations; runs on a JPEG exist for MediaPipe's decoder and for PIL's.
- `hands_video.json`: VIDEO mode over the frames, timestamps 33 * i ms, num_hands 1 and num_hands 2.
- `hands_video_image_mode.json`: IMAGE mode on every frame (num_hands 1 and 2), to show what tracking changes.

`--real-video DIR OUT` additionally runs VIDEO mode over the JPEG frames in DIR (both decoders, num_hands 1 and
2) and writes OUT; that is for local checks against non-committable footage and never writes into the fixtures.

Run from the repository root: `python3 tools/make_hand_goldens.py [--real-video DIR OUT]`.
"""

import argparse
import hashlib
import json
import math
import os
import re
import shutil
import sys
import zipfile

import cv2
import numpy as np
import PIL
from PIL import Image, ImageOps

import mediapipe as mp
from mediapipe.tasks.python import vision
from mediapipe.tasks.python.core.base_options import BaseOptions
from mediapipe.tasks.python.vision.core.image_processing_options import ImageProcessingOptions

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(REPO_ROOT, "Tests", "PureVisionTests", "Fixtures", "hands")
VIDEO_DIR = os.path.join(OUT_DIR, "video")
MODEL = os.path.join("Models", "hand_landmarker.task")
# The committed copies of the source photos (faces/, hands/, objects/ as in the test-data folder they came from);
# PUREVISION_TESTDATA may point at another folder of the same layout.
PHOTO_DIR = os.environ.get(
    "PUREVISION_TESTDATA", os.path.join(REPO_ROOT, "Tests", "PureVisionImageTests", "Fixtures", "photos"))

_OPENCV_DOC = "Debian opencv-doc 4.6.0, /usr/share/doc/opencv-doc/opencv4/html/ (Apache-2.0 AND BSD-3-Clause)"
# (fixture stem, file under testdata/hands, source line from testdata/SOURCES.md)
PHOTOS = [
    ("hand_src", "opencvdoc_handSrc.jpg", _OPENCV_DOC),
    ("hand_dst", "opencvdoc_handDst.jpg", _OPENCV_DOC),
    ("palm_up", "opencvdoc_Back_Projection_Theory0.jpg", _OPENCV_DOC),
    ("clock_hands", "opencvdoc_Threshold_inRange_Tutorial_Result_input.jpeg", _OPENCV_DOC),
]

# Derived rotations start from the photo reduced (bilinear) so its longer side is at most this, which keeps the
# committed fixtures small; the hands still fill far more than the palm detector's 192-px input.
DERIVE_MAX_SIDE = 320
GRAY = (128, 128, 128)

# Video frames: the photo reduced to VIDEO_PHOTO_SIZE, turned by VIDEO_DEGREES_PER_FRAME * i degrees
# (counter-clockwise) about its centre and moved by VIDEO_SHIFT_PER_FRAME * i pixels, over a VIDEO_SIZE canvas.
VIDEO_FRAMES = 48
VIDEO_SIZE = (320, 240)
VIDEO_PHOTO_SIZE = (256, 192)
VIDEO_ORIGIN = (16.0, 12.0)
VIDEO_DEGREES_PER_FRAME = 1.5
VIDEO_SHIFT_PER_FRAME = (1.0, 0.5)
VIDEO_FILL = (40, 64, 96)
VIDEO_SWITCH_FRAMES = range(22, 27)
VIDEO_TIMESTEP_MS = 33

COMMAND = "python3 tools/make_hand_goldens.py"

HAND_LANDMARKER_FACTS = {
    "graph": "mediapipe/tasks/cc/vision/hand_landmarker/hand_landmarker_graph.cc (HandLandmarkerGraph): "
             "HandDetectorGraph (palm detection) feeds HandLandmarksDetectorGraph; in VIDEO and LIVE_STREAM mode "
             "the previous frame's hand rects come back and palm detection is skipped while at least num_hands "
             "hands are tracked",
    "palm_detector": "hand_detector.tflite, 192x192, v/255, letterbox (keep_aspect_ratio) with zero border; "
                     "2016 SSD anchors; weighted NMS, IoU threshold 0.3; score >= min_hand_detection_confidence",
    "palm_rect": "rotation = NormalizeRadians(target - atan2(-(y2 - y0), x2 - x0)) from palm keypoints 0 and 2 in "
                 "pixels, with target set through set_rotation_vector_target_angle(90), the radians field: 90 rad, "
                 "not pi/2 (an upright hand gets about +0.46 rad); then RectTransformation scale 2.6 x 2.6, "
                 "shift_x 0, shift_y -0.5, square_long",
    "landmarks_model": "hand_landmarks_detector.tflite, 224x224, v/255, stretch of the rotated square ROI with "
                       "replicate border; outputs [0] 21 x (x, y, z) in tensor pixels, [1] presence, [2] handedness "
                       "= P(Right), [3] 21 x (x, y, z) world landmarks in metres",
    "presence_gate": "a hand is kept only if presence > min_hand_presence_confidence (strict)",
    "landmark_projection": "x/224, y/224, z/224/0.4; rotated by the rect rotation, scaled by the rect size and moved "
                           "to its centre; z multiplied by the rect width. World landmarks: rotated only",
    "handedness": "index 0 'Right' with score s, index 1 'Left' with 1 - s; the larger is reported. Labels name "
                  "the subject's own hand on an unmirrored photo",
    "tracking_rect": "from landmarks {0,1,2,3,5,6,9,10,13,14,17,18}: rotation pi/2 - atan2 from the wrist to "
                     "mean(mean(lm5, lm13), lm9) in pixels, bounding box in the rotated frame, then scale 2.0 x 2.0, "
                     "shift_y -0.1, square_long",
    "association": "VIDEO / LIVE_STREAM: a new palm rect is added only if its axis-aligned IoU with every tracked "
                   "rect is <= min_tracking_confidence",
    "deduplication": "a hand duplicates an earlier one when >= 10 of 21 landmarks are closer than 0.2 * max(base) "
                     "and the landmark boxes' IoU > 0.2 (base = max pixel distance over 0-5, 5-17, 17-0)",
    "sources": "google-ai-edge/mediapipe v0.10.14: tasks/cc/vision/hand_detector/hand_detector_graph.cc, "
               "hand_landmarker/hand_landmarks_detector_graph.cc, hand_landmarker/hand_landmarker_graph.cc, "
               "modules/hand_landmark/calculators/hand_landmarks_to_rect_calculator.cc; "
               "the project's MediaPipe pipeline notes (mediapipe-pipelines.md), sections 1-3",
}

CONVENTIONS = (
    "Landmarks are normalized to the (unrotated) input image: x / width, y / height, z on the scale of x "
    "(relative depth, wrist about 0). World landmarks are metres, origin near the hand's centre. Hands are in "
    "MediaPipe's output order; handedness is MediaPipe's handedness[i][0] (index, score, category_name: index 0 = "
    "'Right', 1 = 'Left'). rotation_degrees is ImageProcessingOptions.rotation_degrees (clockwise). decoder "
    "'mediapipe' = mp.Image.create_from_file, 'pil' = mp.Image(SRGB, PIL's RGB decode); JPEG inputs are run with "
    "both, PNG inputs (which decode identically everywhere) with 'mediapipe' only. Landmark indices: 0 wrist, "
    "thumb 1-4, index 5-8, middle 9-12, ring 13-16, pinky 17-20.")


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


def save_png(img, path):
    img.save(path, format="PNG", optimize=True)


def make_images():
    """Writes every input image into OUT_DIR; returns [{file, source, derivation}] in a fixed order."""
    images = []
    decoded = {}
    for stem, file, source in PHOTOS:
        name = stem + os.path.splitext(file)[1]
        shutil.copyfile(os.path.join(PHOTO_DIR, "hands", file), os.path.join(OUT_DIR, name))
        images.append({"file": name, "source": f"testdata/hands/{file}: {source}",
                       "derivation": "original file, byte for byte"})
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
            save_png(base.transpose(op), os.path.join(OUT_DIR, name))
            images.append({"file": name, "source": stem, "derivation":
                           f"{base_note}, then rotated {degrees} degrees counter-clockwise (lossless transpose)"})
        for degrees in (30, -30):
            name = f"{stem}_rot{'p' if degrees > 0 else 'm'}{abs(degrees)}.png"
            save_png(base.rotate(degrees, resample=Image.Resampling.BILINEAR, expand=True, fillcolor=(0, 0, 0)),
                     os.path.join(OUT_DIR, name))
            images.append({"file": name, "source": stem, "derivation":
                           f"{base_note}, then PIL rotate({degrees}) (counter-clockwise for positive angles), "
                           "bilinear, expand=True, black fill"})
        name = f"{stem}_scale50.png"
        save_png(scaled(photo, 0.5), os.path.join(OUT_DIR, name))
        images.append({"file": name, "source": stem,
                       "derivation": "PIL bilinear resize of the decoded original to 50%"})

    # The two frames of the handSrc/handDst pair side by side: the same hand twice.
    left = decoded["hand_src"].resize((320, 240), Image.Resampling.BILINEAR)
    right = decoded["hand_dst"].resize((320, 240), Image.Resampling.BILINEAR)
    canvas = Image.new("RGB", (16 + 320 + 16 + 320 + 16, 240 + 32), (0, 0, 0))
    canvas.paste(left, (16, 16))
    canvas.paste(right, (16 + 320 + 16, 16))
    save_png(canvas, os.path.join(OUT_DIR, "composite_src_dst.png"))
    images.append({"file": "composite_src_dst.png", "source": "hand_src, hand_dst", "derivation":
                   "hand_src and hand_dst each resized to 320x240 (PIL bilinear) at (16, 16) and (352, 16) on a "
                   "688x272 black canvas"})

    # The same hand and its mirror image (a left and a right hand), fingertips towards each other.
    canvas = Image.new("RGB", (16 + 320 + 16 + 320 + 16, 240 + 32), (0, 0, 0))
    canvas.paste(left, (16, 16))
    canvas.paste(ImageOps.mirror(left), (16 + 320 + 16, 16))
    save_png(canvas, os.path.join(OUT_DIR, "composite_mirrored.png"))
    images.append({"file": "composite_mirrored.png", "source": "hand_src", "derivation":
                   "hand_src resized to 320x240 (PIL bilinear) at (16, 16) and the same, mirrored left to right, at "
                   "(352, 16) on a 688x272 black canvas"})

    # One small hand in the bottom-right corner of a larger gray canvas.
    small = decoded["palm_up"].resize((128, 128), Image.Resampling.BILINEAR)
    canvas = Image.new("RGB", (480, 360), GRAY)
    origin = (480 - 128 - 8, 360 - 128 - 8)
    canvas.paste(small, origin)
    save_png(canvas, os.path.join(OUT_DIR, "composite_small_corner.png"))
    images.append({"file": "composite_small_corner.png", "source": "palm_up", "derivation":
                   f"palm_up resized to 128x128 (PIL bilinear) at {origin} on a 480x360 canvas of gray 128"})
    return images


def video_frame(photo, i):
    """Frame i: `photo` (already VIDEO_PHOTO_SIZE) turned and moved over the canvas, one bilinear resampling."""
    pw, ph = VIDEO_PHOTO_SIZE
    angle = math.radians(VIDEO_DEGREES_PER_FRAME * i)
    # The photo's centre lands at (cx, cy); a canvas pixel (u, v) samples the photo at the inverse rotation
    # (counter-clockwise on screen, y down) of (u - cx, v - cy) about the photo's centre.
    cx = VIDEO_ORIGIN[0] + pw / 2 + VIDEO_SHIFT_PER_FRAME[0] * i
    cy = VIDEO_ORIGIN[1] + ph / 2 + VIDEO_SHIFT_PER_FRAME[1] * i
    c, s = math.cos(angle), math.sin(angle)
    a, b, d, e = c, -s, s, c
    coeffs = (a, b, pw / 2 - a * cx - b * cy, d, e, ph / 2 - d * cx - e * cy)
    return photo.transform(VIDEO_SIZE, Image.Transform.AFFINE, coeffs, resample=Image.Resampling.BILINEAR,
                           fillcolor=VIDEO_FILL)


def make_video():
    """Writes VIDEO_DIR/frame_NNN.png; returns [{file, source, derivation}] in frame order."""
    os.makedirs(VIDEO_DIR, exist_ok=True)
    photos = {stem: Image.open(os.path.join(PHOTO_DIR, "hands", file)).convert("RGB")
              .resize(VIDEO_PHOTO_SIZE, Image.Resampling.BILINEAR)
              for stem, file, _ in PHOTOS if stem in ("hand_src", "hand_dst")}
    frames = []
    for i in range(VIDEO_FRAMES):
        stem = "hand_dst" if i in VIDEO_SWITCH_FRAMES else "hand_src"
        name = f"frame_{i:03d}.png"
        save_png(video_frame(photos[stem], i), os.path.join(VIDEO_DIR, name))
        frames.append({
            "file": f"video/{name}", "source": stem, "timestamp_ms": VIDEO_TIMESTEP_MS * i,
            "derivation": f"{stem} resized to {VIDEO_PHOTO_SIZE[0]}x{VIDEO_PHOTO_SIZE[1]} (PIL bilinear), turned "
                          f"{VIDEO_DEGREES_PER_FRAME * i:g} degrees counter-clockwise about its centre, centre at "
                          f"({VIDEO_ORIGIN[0] + VIDEO_PHOTO_SIZE[0] / 2 + VIDEO_SHIFT_PER_FRAME[0] * i:g}, "
                          f"{VIDEO_ORIGIN[1] + VIDEO_PHOTO_SIZE[1] / 2 + VIDEO_SHIFT_PER_FRAME[1] * i:g}) on a "
                          f"{VIDEO_SIZE[0]}x{VIDEO_SIZE[1]} canvas of RGB {VIDEO_FILL} (one PIL AFFINE transform, "
                          "bilinear, canvas color outside the photo)",
        })
    return frames


def describe(entries, root):
    """Adds size, file digest and the decoders' RGB digests to each entry (paths relative to root)."""
    for entry in entries:
        path = os.path.join(root, entry["file"])
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
    return entries


def decoders_for(path):
    """JPEGs are run on both decodes; PNGs decode identically everywhere."""
    return ("mediapipe", "pil") if os.path.splitext(path)[1].lower() in (".jpg", ".jpeg") else ("mediapipe",)


def load(path, decoder):
    if decoder == "pil":
        rgb = np.ascontiguousarray(np.asarray(Image.open(path).convert("RGB")))
        return mp.Image(image_format=mp.ImageFormat.SRGB, data=rgb)
    return mp.Image.create_from_file(path)


def landmarker(running_mode, num_hands):
    options = vision.HandLandmarkerOptions(
        base_options=BaseOptions(model_asset_path=os.path.join(REPO_ROOT, MODEL)),
        running_mode=running_mode, num_hands=num_hands)
    return vision.HandLandmarker.create_from_options(options)


def options_record(landmarker_options, rotation=0):
    return {"num_hands": landmarker_options.num_hands,
            "min_hand_detection_confidence": landmarker_options.min_hand_detection_confidence,
            "min_hand_presence_confidence": landmarker_options.min_hand_presence_confidence,
            "min_tracking_confidence": landmarker_options.min_tracking_confidence,
            "rotation_degrees": rotation}


def hands_record(result):
    hands = []
    for i, landmarks in enumerate(result.hand_landmarks):
        category = result.handedness[i][0]
        hands.append({
            "handedness": {"index": int(category.index), "score": float(category.score),
                           "category_name": category.category_name},
            "landmarks": [[float(p.x), float(p.y), float(p.z)] for p in landmarks],
            "world_landmarks": [[float(p.x), float(p.y), float(p.z)] for p in result.hand_world_landmarks[i]],
        })
    return hands


def default_options(num_hands):
    return vision.HandLandmarkerOptions(base_options=BaseOptions(model_asset_path=MODEL), num_hands=num_hands)


def image_runs(entries, root, rotation_plan=()):
    """IMAGE mode: num_hands 1 and 2 on every entry and decoder, then (file, rotation_degrees) pairs."""
    plan = [(e, n, 0) for e in entries for n in (1, 2)]
    by_name = {e["file"]: e for e in entries}
    plan += [(by_name[name], n, rotation) for name, rotation in rotation_plan for n in (1, 2)]
    tasks = {n: landmarker(vision.RunningMode.IMAGE, n) for n in (1, 2)}
    runs = []
    for entry, num_hands, rotation in plan:
        path = os.path.join(root, entry["file"])
        for decoder in decoders_for(path):
            image = load(path, decoder)
            if rotation:
                result = tasks[num_hands].detect(image, ImageProcessingOptions(rotation_degrees=rotation))
            else:
                result = tasks[num_hands].detect(image)
            runs.append({"image": entry["file"], "decoder": decoder, "width": entry["width"],
                         "height": entry["height"], "options": options_record(default_options(num_hands), rotation),
                         "hands": hands_record(result)})
    for task in tasks.values():
        task.close()
    return runs


def video_runs(entries, root, decoders=("mediapipe",)):
    """VIDEO mode over entries in order (timestamps from the entries), one fresh landmarker per run."""
    runs = []
    for decoder in decoders:
        for num_hands in (1, 2):
            frames = []
            with landmarker(vision.RunningMode.VIDEO, num_hands) as task:
                for entry in entries:
                    result = task.detect_for_video(load(os.path.join(root, entry["file"]), decoder),
                                                   entry["timestamp_ms"])
                    frames.append({"image": entry["file"], "timestamp_ms": entry["timestamp_ms"],
                                   "hands": hands_record(result)})
            runs.append({"decoder": decoder, "width": entries[0]["width"], "height": entries[0]["height"],
                         "options": options_record(default_options(num_hands)), "frames": frames})
    return runs


def versions():
    return {"mediapipe": mp.__version__, "numpy": np.__version__, "pillow": PIL.__version__,
            "opencv": cv2.__version__, "python": sys.version.split()[0]}


def model_record():
    path = os.path.join(REPO_ROOT, MODEL)
    with open(path, "rb") as f:
        record = {"model": MODEL, "model_sha256": sha256(f.read())}
    with zipfile.ZipFile(path) as bundle:
        record["bundle_members_sha256"] = {name: sha256(bundle.read(name)) for name in sorted(bundle.namelist())}
    return record


def write_json(path, payload):
    """indent=1 JSON with every innermost array of numbers (a landmark, a shape) on one line."""
    text = json.dumps(payload, indent=1)
    text = re.sub(r"\[\s+([^\[\]{}\"]*?)\s+\]", lambda m: "[" + re.sub(r",\s+", ", ", m.group(1)) + "]", text)
    with open(path, "w") as f:
        f.write(text + "\n")


def summary(hands):
    return f"{len(hands)} [" + ", ".join(
        f"{h['handedness']['category_name']} {h['handedness']['score']:.3f}" for h in hands) + "]"


def real_video(frame_dir, out_path, header):
    names = sorted(n for n in os.listdir(frame_dir) if n.lower().endswith((".jpg", ".jpeg", ".png")))
    entries = [{"file": n, "timestamp_ms": VIDEO_TIMESTEP_MS * i} for i, n in enumerate(names)]
    describe(entries, frame_dir)
    decoders = decoders_for(names[0]) if names else ("mediapipe",)
    runs = video_runs(entries, frame_dir, decoders)
    write_json(out_path, {
        **header, "api": "HandLandmarker, RunningMode.VIDEO, detect_for_video(image, 33 * i ms), one fresh task per "
                         "run", "frame_dir": os.path.abspath(frame_dir),
        "note": "LOCAL CHECK ONLY: the frames are not committable; never copy this file into the repository",
        "frames": entries, "runs": runs})
    for run in runs:
        counts = [len(f["hands"]) for f in run["frames"]]
        print(f"real video {run['decoder']:9s} num_hands={run['options']['num_hands']}: "
              f"hands per frame {dict(sorted((c, counts.count(c)) for c in set(counts)))}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--real-video", nargs=2, metavar=("FRAME_DIR", "OUT_JSON"),
                        help="also run VIDEO mode on these frames (local check; not a fixture)")
    args = parser.parse_args()

    os.makedirs(OUT_DIR, exist_ok=True)
    header = {"command": COMMAND, "versions": versions(), **model_record(), "graph_facts": HAND_LANDMARKER_FACTS,
              "conventions": CONVENTIONS}

    images = describe(make_images(), OUT_DIR)
    digest_note = ("RGB digests are over the decoded H x W x 3 uint8 bytes, row-major; mediapipe = "
                   "mp.Image.create_from_file(path).numpy_view(), pil = PIL.Image.open(path).convert('RGB'), opencv "
                   "= cv2.imread(path) as RGB (informational). Derived images are made from the PIL decode.")
    write_json(os.path.join(OUT_DIR, "images.json"),
               {"command": COMMAND, "versions": versions(), "note": digest_note, "images": images})

    # rotation_degrees on the originals, and on the transposed copies turned back upright (the copies are turned
    # counter-clockwise, rotation_degrees is clockwise).
    rotation_plan = [(stem + os.path.splitext(file)[1], r) for stem, file, _ in PHOTOS for r in (90, 180, 270)]
    rotation_plan += [(f"{stem}_rot{r}.png", r) for stem, _, _ in PHOTOS for r in (90, 180, 270)]
    still = image_runs(images, OUT_DIR, rotation_plan)
    write_json(os.path.join(OUT_DIR, "hands_image.json"), {
        **header, "api": "mediapipe.tasks.python.vision.HandLandmarker, RunningMode.IMAGE, detect(image[, "
                         "ImageProcessingOptions(rotation_degrees)]); default options except num_hands",
        "results": still})

    frames = describe(make_video(), OUT_DIR)
    write_json(os.path.join(VIDEO_DIR, "frames.json"),
               {"command": COMMAND, "versions": versions(), "note": digest_note, "frames": frames})
    video = video_runs(frames, OUT_DIR)
    write_json(os.path.join(OUT_DIR, "hands_video.json"), {
        **header, "api": "HandLandmarker, RunningMode.VIDEO, detect_for_video(image, timestamp_ms = 33 * i), one "
                         "fresh task per run, frames in order", "runs": video})
    per_frame = image_runs(frames, OUT_DIR)
    write_json(os.path.join(OUT_DIR, "hands_video_image_mode.json"), {
        **header, "api": "HandLandmarker, RunningMode.IMAGE, detect(image) on each video frame on its own",
        "results": per_frame})

    for run in still:
        print(f"image {run['image']:36s} n={run['options']['num_hands']} rot={run['options']['rotation_degrees']:3d} "
              f"{run['decoder']:9s}: {summary(run['hands'])}")
    for run in video:
        print(f"video n={run['options']['num_hands']}: "
              + " ".join(str(len(f["hands"])) for f in run["frames"]))
    for entry in images + frames:
        if not entry["decoders_agree"]:
            print(f"decoders differ on {entry['file']}: max {entry.get('decoder_max_abs_diff')} "
                  f"over {entry.get('decoder_differing_bytes')} bytes")

    if args.real_video:
        real_video(args.real_video[0], args.real_video[1], header)


if __name__ == "__main__":
    main()
