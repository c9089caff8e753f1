"""MediaPipe pose landmarker goldens in Tests/PureVisionTests/Fixtures/pose/.

Images: the committed-safe photos with a person (testdata `people/`, and `faces/` where a body shows), reduced with
PIL (bilinear) so the longer side is at most 384 px and saved as RGB PNG, plus images derived from them with PIL
(mirrorings, lossless 90/180-degree turns, bilinear 50% scalings, a bilinear +25-degree rotation on an expanded
black canvas, and two two-person composites). PNG everywhere, so every decoder (ours, PIL, MediaPipe's own) reads
the same RGB bytes; `images.json` describes each image with the SHA-256 of its file and of its decoded RGB bytes.

Video: two deterministic PNG sequences in `video/` (`frames.json` describes them):
- `single_NNN.png` (256x256): the basketball player cut from his photo, moved 3 px right and 1 px down and turned
  2 degrees per frame over a flat canvas; frames 9-10 show the canvas alone (the person hidden); timestamps
  33 * i ms from 0.
- `pair_NNN.png` (384x224): two people side by side drifting apart; the right one is hidden on frames 5-6;
  timestamps 1000 + 50 * i ms.

Goldens (MediaPipe Tasks `PoseLandmarker` from `Models/pose_landmarker_full.task`):
- `pose_image.json`: IMAGE mode on every image with default options (num_poses 1, no masks) and with num_poses 2
  and output_segmentation_masks, plus `ImageProcessingOptions(rotation_degrees)` 90/180/270 on two photos. Per pose
  33 landmarks and 33 world landmarks as [x, y, z, visibility, presence]; with masks, each pose's mask is
  `masks/<run>_pose<i>.npy` (float16, H x W: the float32 mask rounded to half precision, so a comparison has
  that rounding, at most 2.4e-4, on top of its own error) for the runs named in MASK_IMAGES; the other runs
  record the mask's shape, sum and mean only.
- `pose_video.json`: VIDEO mode, one fresh landmarker per run: `single` with num_poses 1, `pair` with num_poses 2
  and with num_poses 1. Per frame also `next_frame_rects`: MediaPipe's internal POSE_RECTS_NEXT_FRAME stream
  ([x_center, y_center, width, height, rotation] per pose: the regions the next frame is tracked in), read from the
  same task graph with that stream added as an output (its landmarks are checked equal to the public API's).

Every float is the float32 value MediaPipe returned, written in its shortest round-trip decimal form.
Deterministic: a re-run rewrites identical bytes. Run from the repository root: `python3 tools/make_pose_goldens.py`.
"""

import hashlib
import json
import math
import os
import re
import sys
import zipfile

import cv2
import numpy as np
import PIL
from PIL import Image, ImageOps

import mediapipe as mp
from mediapipe.python import packet_creator, packet_getter
from mediapipe.tasks.python import vision
from mediapipe.tasks.python.core import task_info as task_info_module
from mediapipe.tasks.python.vision import pose_landmarker as pose_landmarker_module
from mediapipe.tasks.python.core.base_options import BaseOptions
from mediapipe.tasks.python.vision.core.image_processing_options import ImageProcessingOptions

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(REPO_ROOT, "Tests", "PureVisionTests", "Fixtures", "pose")
MASK_DIR = os.path.join(OUT_DIR, "masks")
VIDEO_DIR = os.path.join(OUT_DIR, "video")
MODEL = os.path.join("Models", "pose_landmarker_full.task")
# The original photos (people/ and objects/ are not all committed at full size): PUREVISION_TESTDATA names the folder
# of the shared test photos (the layout of the committed Tests/PureVisionImageTests/Fixtures/photos/ plus people/).
PHOTO_DIR = os.environ.get("PUREVISION_TESTDATA", "")
if not PHOTO_DIR:
    raise SystemExit("set PUREVISION_TESTDATA to the folder of the shared test photos (faces/, hands/, objects/, people/)")
COMMAND = "python3 tools/make_pose_goldens.py"

# (fixture stem, file under testdata, source line from testdata/SOURCES.md)
PHOTOS = [
    ("obama", "people/fr_obama.jpg", "PyPI face_recognition==1.3.0 tests/test_images/obama.jpg, public domain "
                                     "(Official White House Photo by Pete Souza)"),
    ("camera", "people/skimage_camera.png", "PyPI scikit-image==0.26.0 skimage/data/camera.png, CC0"),
    ("basketball", "people/opencv_basketball1.png", "Debian opencv-doc 4.6.0 examples/data/basketball1.png, "
                                                    "Apache-2.0 AND BSD-3-Clause"),
    ("sports2d", "people/sports2d_frame020.png", "PyPI sports2d==0.8.34 Demo/demo.mp4 frame 20, BSD-3-Clause"),
    ("hopper", "faces/matplotlib_grace_hopper.jpg", "Debian python-matplotlib-data 3.6.3 grace_hopper.jpg, "
                                                    "public domain"),
    ("opencvdoc_face", "faces/opencvdoc_230501201_1.jpg", "Debian opencv-doc 4.6.0, Apache-2.0 AND BSD-3-Clause"),
    ("astronaut", "faces/skimage_astronaut.png", "Debian python3-skimage 0.19.3 astronaut.png, public domain "
                                                 "(NASA)"),
]
MAX_SIDE = 384

# Derivations per photo stem.
MIRRORED = ["obama", "camera", "basketball", "hopper", "astronaut"]
TURNED_90 = ["obama", "basketball", "astronaut"]
TURNED_180 = ["camera", "basketball"]
SCALED_50 = ["obama", "basketball", "opencvdoc_face"]
ROTATED_25 = ["basketball", "obama"]
# IMAGE-mode runs with rotation_degrees (MediaPipe 0.10.14 only undoes it for the detector's crop; see the doc).
ROTATION_RUNS = [("obama.png", 90), ("obama.png", 180), ("obama.png", 270), ("basketball_turn90.png", 90),
                 ("basketball.png", 180)]
# Images whose num_poses 2 masks are stored in full.
MASK_IMAGES = ["obama.png", "basketball.png", "camera_mirror.png", "astronaut.png", "composite_two.png",
               "basketball_scale50.png"]

# Video: the basketball player's box in the reduced 384x288 photo, and the sequences' geometry.
PLAYER_BOX = (10, 40, 130, 288)
SINGLE_SIZE = (256, 256)
SINGLE_FRAMES = 20
SINGLE_HIDDEN = (9, 10)
SINGLE_FILL = (70, 90, 60)
PAIR_SIZE = (384, 224)
PAIR_FRAMES = 12
PAIR_HIDDEN = (5, 6)
PAIR_FILL = (96, 96, 110)

LANDMARKER_FACTS = {
    "graph": "mediapipe/tasks/cc/vision/pose_landmarker/pose_landmarker_graph.cc: PoseDetectorGraph feeds "
             "PoseLandmarksDetectorGraph; VIDEO / LIVE_STREAM loop the next-frame rects back and skip the detector "
             "while num_poses poses are tracked, and smooth landmarks (OneEuro) and visibility (low-pass) when "
             "num_poses == 1",
    "detector": "pose_detector.tflite 224x224, [-1, 1] (fma), letterbox zero border; 2254 SSD anchors; weighted "
                "NMS IoU 0.5; detections only letterbox-corrected; ROI from keypoints 0 -> 1, 90 degrees, box = "
                "2 * |kp1 - kp0| square, x1.25",
    "landmarks": "pose_landmarks_detector.tflite 256x256, [0, 1], stretch, replicate; presence output already a "
                 "probability (gate >); heatmap refinement kernel 7; visibility / presence = sigmoid; z / 256",
    "doc": "the project's shared docs, tasks/pose-landmarker.md",
}

CONVENTIONS = (
    "landmarks: per pose 33 [x, y, z, visibility, presence], x and y normalized to the input image, z on the scale "
    "of x. world_landmarks: per pose 33 [x, y, z, visibility, presence], metres around the hips' centre. Poses in "
    "MediaPipe's order. rotation_degrees is ImageProcessingOptions.rotation_degrees (clockwise). Floats are "
    "float32 values in shortest round-trip form.")


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def f32(value):
    """The float32 value as the shortest decimal that reads back to it."""
    return float(repr(np.float32(value)).replace("np.float32(", "").rstrip(")"))


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
    base = {}
    for stem, file, source in PHOTOS:
        photo = Image.open(os.path.join(PHOTO_DIR, file)).convert("RGB")
        reduced = fit_long_side(photo, MAX_SIDE)
        base[stem] = reduced
        name = f"{stem}.png"
        save_png(reduced, os.path.join(OUT_DIR, name))
        note = (f"PIL decode converted to RGB, bilinear resize from {photo.size[0]}x{photo.size[1]} to "
                f"{reduced.size[0]}x{reduced.size[1]}") if reduced.size != photo.size else \
            "PIL decode converted to RGB"
        images.append({"file": name, "source": f"testdata/{file}: {source}", "derivation": note})

    def add(name, img, source, derivation):
        save_png(img, os.path.join(OUT_DIR, name))
        images.append({"file": name, "source": source, "derivation": derivation})

    for stem in MIRRORED:
        add(f"{stem}_mirror.png", ImageOps.mirror(base[stem]), stem, f"{stem}.png mirrored left to right")
    for stem in TURNED_90:
        add(f"{stem}_turn90.png", base[stem].transpose(Image.Transpose.ROTATE_90), stem,
            f"{stem}.png turned 90 degrees counter-clockwise (lossless transpose)")
    for stem in TURNED_180:
        add(f"{stem}_turn180.png", base[stem].transpose(Image.Transpose.ROTATE_180), stem,
            f"{stem}.png turned 180 degrees (lossless transpose)")
    for stem in SCALED_50:
        add(f"{stem}_scale50.png", scaled(base[stem], 0.5), stem, f"{stem}.png, PIL bilinear resize to 50%")
    for stem in ROTATED_25:
        add(f"{stem}_rot25.png",
            base[stem].rotate(25, resample=Image.Resampling.BILINEAR, expand=True, fillcolor=(0, 0, 0)), stem,
            f"{stem}.png, PIL rotate(25) (counter-clockwise), bilinear, expand=True, black fill")

    # Two people side by side: the Obama portrait and Grace Hopper, each scaled to 288 px high.
    left = base["obama"].resize((round(base["obama"].width * 288 / base["obama"].height), 288),
                                Image.Resampling.BILINEAR)
    right = base["hopper"].resize((round(base["hopper"].width * 288 / base["hopper"].height), 288),
                                  Image.Resampling.BILINEAR)
    canvas = Image.new("RGB", (16 + left.width + 24 + right.width + 16, 288 + 32), (40, 40, 40))
    canvas.paste(left, (16, 16))
    canvas.paste(right, (16 + left.width + 24, 16))
    add("composite_two.png", canvas, "obama, hopper",
        f"obama.png and hopper.png, each resized to 288 px high (PIL bilinear), side by side at (16, 16) and "
        f"({16 + left.width + 24}, 16) on a {canvas.width}x{canvas.height} canvas of RGB (40, 40, 40)")

    # Two people of different sizes: Grace Hopper 288 px high, the Obama portrait mirrored and 200 px high.
    left = base["hopper"].resize((round(base["hopper"].width * 288 / base["hopper"].height), 288),
                                 Image.Resampling.BILINEAR)
    right = ImageOps.mirror(base["obama"]).resize((round(base["obama"].width * 200 / base["obama"].height), 200),
                                                  Image.Resampling.BILINEAR)
    canvas = Image.new("RGB", (520, 320), (200, 200, 200))
    canvas.paste(left, (16, 16))
    canvas.paste(right, (16 + left.width + 24, 104))
    add("composite_sizes.png", canvas, "hopper, obama",
        f"hopper.png resized to 288 px high at (16, 16) and obama.png mirrored and resized to 200 px high at "
        f"({16 + left.width + 24}, 104) (PIL bilinear) on a 520x320 canvas of RGB (200, 200, 200)")
    return images, base


def affine_paste(canvas_size, fill, tile, centre, degrees):
    """`tile` turned counter-clockwise by `degrees` about its centre, placed with its centre at `centre`: one PIL
    AFFINE transform (bilinear), canvas color outside the tile."""
    tw, th = tile.size
    angle = math.radians(degrees)
    c, s = math.cos(angle), math.sin(angle)
    a, b, d, e = c, -s, s, c
    cx, cy = centre
    coeffs = (a, b, tw / 2 - a * cx - b * cy, d, e, th / 2 - d * cx - e * cy)
    return tile.transform(canvas_size, Image.Transform.AFFINE, coeffs, resample=Image.Resampling.BILINEAR,
                          fillcolor=fill)


def make_video(base):
    os.makedirs(VIDEO_DIR, exist_ok=True)
    frames = {"single": [], "pair": []}
    player = base["basketball"].crop(PLAYER_BOX).resize((100, 206), Image.Resampling.BILINEAR)
    for i in range(SINGLE_FRAMES):
        name = f"single_{i:03d}.png"
        if i in SINGLE_HIDDEN:
            img = Image.new("RGB", SINGLE_SIZE, SINGLE_FILL)
            how = f"the {SINGLE_SIZE[0]}x{SINGLE_SIZE[1]} canvas of RGB {SINGLE_FILL} alone (person hidden)"
        else:
            centre = (96 + 3 * i, 120 + i)
            img = affine_paste(SINGLE_SIZE, SINGLE_FILL, player, centre, 2 * i)
            how = (f"basketball.png cropped to {PLAYER_BOX}, resized to 100x206, turned {2 * i} degrees "
                   f"counter-clockwise, centre at {centre} on a {SINGLE_SIZE[0]}x{SINGLE_SIZE[1]} canvas of RGB "
                   f"{SINGLE_FILL} (one PIL AFFINE transform, bilinear)")
        save_png(img, os.path.join(VIDEO_DIR, name))
        frames["single"].append({"file": f"video/{name}", "timestamp_ms": 33 * i, "derivation": how})

    portrait = base["obama"].resize((136, 170), Image.Resampling.BILINEAR)
    player_small = base["basketball"].crop(PLAYER_BOX).resize((96, 198), Image.Resampling.BILINEAR)
    for i in range(PAIR_FRAMES):
        name = f"pair_{i:03d}.png"
        canvas = Image.new("RGB", PAIR_SIZE, PAIR_FILL)
        left_origin = (40 - 2 * i, 12)
        canvas.paste(player_small, left_origin)
        how = f"the player cropped as in single_NNN, resized to 96x198, at {left_origin}"
        if i not in PAIR_HIDDEN:
            right_origin = (200 + 3 * i, 30)
            canvas.paste(portrait, right_origin)
            how += f" and obama.png resized to 136x170 at {right_origin}"
        else:
            how += " (the second person hidden)"
        save_png(canvas, os.path.join(VIDEO_DIR, name))
        frames["pair"].append({"file": f"video/{name}", "timestamp_ms": 1000 + 50 * i,
                               "derivation": how + f" on a {PAIR_SIZE[0]}x{PAIR_SIZE[1]} canvas of RGB "
                                                   f"{PAIR_FILL}"})
    return frames


def describe(entries, root):
    for entry in entries:
        path = os.path.join(root, entry["file"])
        with open(path, "rb") as f:
            entry["file_sha256"] = sha256(f.read())
        mp_rgb = np.ascontiguousarray(np.asarray(mp.Image.create_from_file(path).numpy_view()))
        pil_rgb = np.ascontiguousarray(np.asarray(Image.open(path).convert("RGB")))
        entry["width"] = int(pil_rgb.shape[1])
        entry["height"] = int(pil_rgb.shape[0])
        entry["rgb_sha256"] = sha256(pil_rgb.tobytes())
        assert mp_rgb.shape == pil_rgb.shape and sha256(mp_rgb.tobytes()) == entry["rgb_sha256"], entry["file"]
    return entries


def landmarker(running_mode, num_poses, masks):
    options = vision.PoseLandmarkerOptions(
        base_options=BaseOptions(model_asset_path=os.path.join(REPO_ROOT, MODEL)), running_mode=running_mode,
        num_poses=num_poses, output_segmentation_masks=masks)
    return vision.PoseLandmarker.create_from_options(options)


def poses_record(result):
    poses = []
    for i, landmarks in enumerate(result.pose_landmarks):
        poses.append({
            "landmarks": [[f32(p.x), f32(p.y), f32(p.z), f32(p.visibility), f32(p.presence)] for p in landmarks],
            "world_landmarks": [[f32(p.x), f32(p.y), f32(p.z), f32(p.visibility), f32(p.presence)]
                                for p in result.pose_world_landmarks[i]],
        })
    return poses


def image_runs(images):
    by_name = {e["file"]: e for e in images}
    plan = [(e["file"], 1, False, 0) for e in images] + [(e["file"], 2, True, 0) for e in images]
    plan += [(name, 1, False, rotation) for name, rotation in ROTATION_RUNS]
    tasks = {(n, m): landmarker(vision.RunningMode.IMAGE, n, m) for n, m in ((1, False), (2, True))}
    runs = []
    os.makedirs(MASK_DIR, exist_ok=True)
    for name, num_poses, masks, rotation in plan:
        entry = by_name[name]
        image = mp.Image.create_from_file(os.path.join(OUT_DIR, name))
        task = tasks[(num_poses, masks)]
        if rotation:
            result = task.detect(image, ImageProcessingOptions(rotation_degrees=rotation))
        else:
            result = task.detect(image)
        run = {"image": name, "width": entry["width"], "height": entry["height"],
               "options": {"num_poses": num_poses, "output_segmentation_masks": masks,
                           "min_pose_detection_confidence": 0.5, "min_pose_presence_confidence": 0.5,
                           "rotation_degrees": rotation},
               "poses": poses_record(result)}
        if masks:
            mask_records = []
            for i, mask in enumerate(result.segmentation_masks or []):
                values = np.asarray(mask.numpy_view(), dtype=np.float32)
                values = values.reshape(values.shape[0], values.shape[1])
                record = {"shape": list(values.shape), "sum": float(values.astype(np.float64).sum()),
                          "max": f32(values.max())}
                if name in MASK_IMAGES:
                    file = f"masks/{os.path.splitext(name)[0]}_pose{i}.npy"
                    np.save(os.path.join(OUT_DIR, file), values.astype(np.float16))
                    record["file"] = file
                mask_records.append(record)
            run["masks"] = mask_records
        runs.append(run)
    for task in tasks.values():
        task.close()
    return runs


def tapped_video_landmarker(num_poses):
    """A VIDEO-mode PoseLandmarker whose graph also outputs the internal POSE_RECTS_NEXT_FRAME stream (the regions
    the next frame's landmarks are computed in). It is the public task's own graph (`_TASK_GRAPH_NAME`, the public
    output streams) with one more output stream; `video_runs` checks that its results equal the public API's."""
    options = vision.PoseLandmarkerOptions(
        base_options=BaseOptions(model_asset_path=os.path.join(REPO_ROOT, MODEL)),
        running_mode=vision.RunningMode.VIDEO, num_poses=num_poses)
    info = task_info_module.TaskInfo(
        task_graph=pose_landmarker_module._TASK_GRAPH_NAME,
        input_streams=["IMAGE:image_in", "NORM_RECT:norm_rect_in"],
        output_streams=["NORM_LANDMARKS:norm_landmarks", "WORLD_LANDMARKS:world_landmarks", "IMAGE:image_out",
                        "POSE_RECTS_NEXT_FRAME:pose_rects_next_frame"],
        task_options=options)
    return vision.PoseLandmarker(info.generate_graph_config(enable_flow_limiting=False), vision.RunningMode.VIDEO,
                                 None)


def video_runs(frames):
    runs = []
    for sequence, num_poses in (("single", 1), ("pair", 2), ("pair", 1)):
        entries = frames[sequence]
        records = []
        public = landmarker(vision.RunningMode.VIDEO, num_poses, False)
        tapped = tapped_video_landmarker(num_poses)
        for entry in entries:
            image = mp.Image.create_from_file(os.path.join(OUT_DIR, entry["file"]))
            timestamp_us = entry["timestamp_ms"] * 1000
            result = public.detect_for_video(image, entry["timestamp_ms"])
            packets = tapped._process_video_data({
                "image_in": packet_creator.create_image(image).at(timestamp_us),
                "norm_rect_in": packet_creator.create_proto(
                    tapped.convert_to_normalized_rect(None, image).to_pb2()).at(timestamp_us)})
            rects = [] if packets["pose_rects_next_frame"].is_empty() else \
                packet_getter.get_proto_list(packets["pose_rects_next_frame"])
            tapped_landmarks = [] if packets["norm_landmarks"].is_empty() else \
                packet_getter.get_proto_list(packets["norm_landmarks"])
            assert [[(p.x, p.y, p.z) for p in lms.landmark] for lms in tapped_landmarks] == \
                [[(p.x, p.y, p.z) for p in lms] for lms in result.pose_landmarks], entry["file"]
            records.append({"image": entry["file"], "timestamp_ms": entry["timestamp_ms"],
                            "poses": poses_record(result),
                            "next_frame_rects": [[f32(r.x_center), f32(r.y_center), f32(r.width), f32(r.height),
                                                  f32(r.rotation)] for r in rects]})
        public.close()
        tapped.close()
        runs.append({"sequence": sequence, "width": entries[0]["width"], "height": entries[0]["height"],
                     "options": {"num_poses": num_poses, "min_tracking_confidence": 0.5},
                     "frames": records})
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
    """indent=1 JSON with every innermost array of numbers on one line."""
    text = json.dumps(payload, indent=1)
    text = re.sub(r"\[\s+([^\[\]{}\"]*?)\s+\]", lambda m: "[" + re.sub(r",\s+", ", ", m.group(1)) + "]", text)
    with open(path, "w") as f:
        f.write(text + "\n")


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    header = {"command": COMMAND, "versions": versions(), **model_record(), "graph_facts": LANDMARKER_FACTS,
              "conventions": CONVENTIONS}
    images, base = make_images()
    describe(images, OUT_DIR)
    write_json(os.path.join(OUT_DIR, "images.json"), {"command": COMMAND, "versions": versions(), "images": images})
    still = image_runs(images)
    write_json(os.path.join(OUT_DIR, "pose_image.json"), {
        **header, "api": "mediapipe.tasks.python.vision.PoseLandmarker, RunningMode.IMAGE, detect(image[, "
                         "ImageProcessingOptions(rotation_degrees)]), image = mp.Image.create_from_file(png)",
        "results": still})

    frames = make_video(base)
    for entries in frames.values():
        describe(entries, OUT_DIR)
    write_json(os.path.join(VIDEO_DIR, "frames.json"), {"command": COMMAND, "versions": versions(), **frames})
    video = video_runs(frames)
    write_json(os.path.join(OUT_DIR, "pose_video.json"), {
        **header, "api": "PoseLandmarker, RunningMode.VIDEO, detect_for_video(image, timestamp_ms), one fresh task "
                         "per run, frames in order", "runs": video})

    for run in still:
        o = run["options"]
        print(f"image {run['image']:28s} n={o['num_poses']} masks={int(o['output_segmentation_masks'])} "
              f"rot={o['rotation_degrees']:3d}: {len(run['poses'])} poses")
    for run in video:
        print(f"video {run['sequence']} n={run['options']['num_poses']}: "
              + " ".join(str(len(f["poses"])) for f in run["frames"]))


if __name__ == "__main__":
    main()
