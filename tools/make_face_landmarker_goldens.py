"""MediaPipe FaceLandmarker goldens in Tests/PureVisionTests/Fixtures/face_landmarker/.

Images (IMAGE mode): the face photos, rotations, scalings and composites already committed in
`Tests/PureVisionTests/Fixtures/faces/` by `tools/make_face_goldens.py` (sources and licences in its
`images.json`); nothing new is committed for them. Every image is decoded with PIL and handed to MediaPipe as an SRGB
`mp.Image`: PIL's RGB bytes equal the Swift decoders' (MediaPipe's own JPEG loader differs), so both sides see the
same pixels.

Video (VIDEO mode): a synthesized head-movement sequence written here as PNG frames (`video/frame_NNN.png`): a
square crop of the astronaut photo, reduced, turned back and forth (a nod-like in-plane roll), moved and zoomed over a
fixed-color canvas, with one blank frame (the face lost, so the detector runs again) and timestamps 33 * i ms.

Goldens (MediaPipe Tasks 0.10.14 `FaceLandmarker`, `Models/face_landmarker.task`, output_face_blendshapes and
output_facial_transformation_matrixes on):
- `face_landmarker_image.json`: IMAGE mode on every image at num_faces 1, on the composites at num_faces 2 as well,
  and with `ImageProcessingOptions(rotation_degrees)` 90 / 180 / 270 on the originals and on the transposed copies.
- `face_landmarker_video.json`: VIDEO mode over the frames, num_faces 1 (landmarks 1-euro smoothed by MediaPipe) and
  num_faces 2 (no smoothing; the detector runs on every frame because fewer than 2 faces are tracked).
Per face: 478 `[x, y, z]` landmarks, the 52 blendshape scores in index order with their names, and the 4x4 facial
transformation matrix row-major (16 numbers), floats with 9 significant digits. A re-run writes identical bytes.

Run from the repository root: `python3 tools/make_face_landmarker_goldens.py`.
"""

import hashlib
import json
import math
import os
import re
import sys
import zipfile

import numpy as np
import PIL
from PIL import Image

import mediapipe as mp
from mediapipe.tasks.python import vision
from mediapipe.tasks.python.core.base_options import BaseOptions
from mediapipe.tasks.python.vision.core.image_processing_options import ImageProcessingOptions

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(REPO_ROOT, "Tests", "PureVisionTests", "Fixtures")
FACES_DIR = os.path.join(FIXTURES, "faces")
OUT_DIR = os.path.join(FIXTURES, "face_landmarker")
VIDEO_DIR = os.path.join(OUT_DIR, "video")
MODEL = os.path.join("Models", "face_landmarker.task")
COMMAND = "python3 tools/make_face_landmarker_goldens.py"

# Video: the astronaut's face (crop of the 512x512 original) reduced to VIDEO_FACE_SIZE, rolled by
# VIDEO_ROLL_DEGREES * sin(i / 4) degrees, zoomed by 1 + VIDEO_ZOOM * sin(i / 6) and moved along a small ellipse
# over a VIDEO_SIZE canvas; frame VIDEO_BLANK_FRAME is the canvas alone.
VIDEO_FRAMES = 24
VIDEO_SIZE = (224, 208)
VIDEO_FACE_CROP = (114, 20, 334, 240)
VIDEO_FACE_SIZE = (144, 144)
VIDEO_ROLL_DEGREES = 18.0
VIDEO_ZOOM = 0.12
VIDEO_SHIFT = (14.0, 9.0)
VIDEO_FILL = (52, 60, 72)
VIDEO_BLANK_FRAME = 15
VIDEO_TIMESTEP_MS = 33

FACTS = ("google-ai-edge/mediapipe v0.10.14, mediapipe/tasks/cc/vision/face_landmarker/ "
         "(face_landmarker_graph.cc, face_landmarks_detector_graph.cc, face_blendshapes_graph.cc) and "
         "tasks/cc/vision/face_geometry/; the facts are restated in the project's notes on MediaPipe's face landmarker")
CONVENTIONS = (
    "Landmarks are normalized to the unrotated input image (x / width, y / height, z on the scale of x). Blendshapes "
    "are MediaPipe's face_blendshapes[i]: 52 categories in index order (index, score, category_name). matrix is "
    "facial_transformation_matrixes[i] (a 4x4 numpy array) flattened row-major; translation in centimetres. Faces "
    "are in MediaPipe's output order. rotation_degrees is ImageProcessingOptions.rotation_degrees (clockwise).")


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def rgb(path):
    return np.ascontiguousarray(np.asarray(Image.open(path).convert("RGB")))


def mp_image(path):
    return mp.Image(image_format=mp.ImageFormat.SRGB, data=rgb(path))


def landmarker(mode, num_faces):
    options = vision.FaceLandmarkerOptions(
        base_options=BaseOptions(model_asset_path=os.path.join(REPO_ROOT, MODEL)), running_mode=mode,
        num_faces=num_faces, output_face_blendshapes=True, output_facial_transformation_matrixes=True)
    return vision.FaceLandmarker.create_from_options(options)


def f9(value):
    """A float32 value printed with 9 significant digits (enough to round-trip)."""
    return float(f"{float(np.float32(value)):.9g}")


def faces_record(result):
    faces = []
    for i, landmarks in enumerate(result.face_landmarks):
        face = {"landmarks": [[f9(p.x), f9(p.y), f9(p.z)] for p in landmarks]}
        if i < len(result.face_blendshapes):
            face["blendshapes"] = [{"index": int(c.index), "score": f9(c.score), "category_name": c.category_name}
                                   for c in result.face_blendshapes[i]]
        if i < len(result.facial_transformation_matrixes):
            face["matrix"] = [f9(v) for v in np.asarray(result.facial_transformation_matrixes[i]).reshape(-1)]
        faces.append(face)
    return faces


def image_list():
    with open(os.path.join(FACES_DIR, "images.json")) as f:
        return [e["file"] for e in json.load(f)["images"]]


def image_runs():
    names = image_list()
    plan = [(name, 1, 0) for name in names]
    plan += [(name, 2, 0) for name in names if name.startswith("composite_")]
    for stem in ("grace_hopper.jpg", "astronaut.png", "opencvdoc_face.jpg"):
        plan += [(stem, 1, r) for r in (90, 180, 270)]
    for stem in ("grace_hopper", "astronaut", "opencvdoc_face"):
        plan += [(f"{stem}_rot{r}.png", 1, r) for r in (90, 180, 270)]
    tasks = {n: landmarker(vision.RunningMode.IMAGE, n) for n in (1, 2)}
    runs = []
    for name, num_faces, rotation in plan:
        path = os.path.join(FACES_DIR, name)
        image = mp_image(path)
        if rotation:
            result = tasks[num_faces].detect(image, ImageProcessingOptions(rotation_degrees=rotation))
        else:
            result = tasks[num_faces].detect(image)
        runs.append({"image": "faces/" + name, "width": image.width, "height": image.height,
                     "num_faces": num_faces, "rotation_degrees": rotation, "faces": faces_record(result)})
    for task in tasks.values():
        task.close()
    return runs


def video_frame(face, i):
    """Frame i: the face turned, zoomed and moved over the canvas with one bilinear AFFINE resampling."""
    if i == VIDEO_BLANK_FRAME:
        return Image.new("RGB", VIDEO_SIZE, VIDEO_FILL)
    fw, fh = VIDEO_FACE_SIZE
    angle = math.radians(VIDEO_ROLL_DEGREES * math.sin(i / 4))
    zoom = 1 + VIDEO_ZOOM * math.sin(i / 6)
    cx = VIDEO_SIZE[0] / 2 + VIDEO_SHIFT[0] * math.sin(i / 5)
    cy = VIDEO_SIZE[1] / 2 + VIDEO_SHIFT[1] * math.cos(i / 5)
    # A canvas pixel (u, v) samples the face at the inverse similarity of (u - cx, v - cy) about its centre.
    c, s = math.cos(angle) / zoom, math.sin(angle) / zoom
    a, b, d, e = c, -s, s, c
    coeffs = (a, b, fw / 2 - a * cx - b * cy, d, e, fh / 2 - d * cx - e * cy)
    return face.transform(VIDEO_SIZE, Image.Transform.AFFINE, coeffs, resample=Image.Resampling.BILINEAR,
                          fillcolor=VIDEO_FILL)


def make_video():
    os.makedirs(VIDEO_DIR, exist_ok=True)
    face = Image.open(os.path.join(FACES_DIR, "astronaut.png")).convert("RGB").crop(VIDEO_FACE_CROP) \
        .resize(VIDEO_FACE_SIZE, Image.Resampling.BILINEAR)
    frames = []
    for i in range(VIDEO_FRAMES):
        name = f"frame_{i:03d}.png"
        path = os.path.join(VIDEO_DIR, name)
        video_frame(face, i).save(path, format="PNG", optimize=True)
        with open(path, "rb") as f:
            digest = sha256(f.read())
        frames.append({"file": f"video/{name}", "timestamp_ms": VIDEO_TIMESTEP_MS * i, "file_sha256": digest,
                       "rgb_sha256": sha256(rgb(path).tobytes())})
    return frames


def video_runs(frames):
    runs = []
    for num_faces in (1, 2):
        results = []
        with landmarker(vision.RunningMode.VIDEO, num_faces) as task:
            for frame in frames:
                result = task.detect_for_video(mp_image(os.path.join(OUT_DIR, frame["file"])), frame["timestamp_ms"])
                results.append({"image": frame["file"], "timestamp_ms": frame["timestamp_ms"],
                                "faces": faces_record(result)})
        runs.append({"num_faces": num_faces, "width": VIDEO_SIZE[0], "height": VIDEO_SIZE[1], "frames": results})
    return runs


def header():
    path = os.path.join(REPO_ROOT, MODEL)
    with open(path, "rb") as f:
        digest = sha256(f.read())
    with zipfile.ZipFile(path) as bundle:
        members = {name: sha256(bundle.read(name)) for name in sorted(bundle.namelist())}
    return {"command": COMMAND,
            "versions": {"mediapipe": mp.__version__, "numpy": np.__version__, "pillow": PIL.__version__,
                         "python": sys.version.split()[0]},
            "model": MODEL, "model_sha256": digest, "bundle_members_sha256": members, "sources": FACTS,
            "options": "num_faces as given; min_face_detection_confidence, min_face_presence_confidence, "
                       "min_tracking_confidence 0.5 (defaults); output_face_blendshapes and "
                       "output_facial_transformation_matrixes true",
            "conventions": CONVENTIONS}


def write_json(path, payload):
    """indent=1 JSON with every innermost array of numbers on one line."""
    text = json.dumps(payload, indent=1)
    text = re.sub(r"\[\s+([^\[\]{}\"]*?)\s+\]", lambda m: "[" + re.sub(r",\s+", ", ", m.group(1)) + "]", text)
    with open(path, "w") as f:
        f.write(text + "\n")


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    head = header()
    still = image_runs()
    write_json(os.path.join(OUT_DIR, "face_landmarker_image.json"), {
        **head, "api": "FaceLandmarker, RunningMode.IMAGE, detect(image[, ImageProcessingOptions(rotation_degrees)])",
        "results": still})
    frames = make_video()
    video = video_runs(frames)
    write_json(os.path.join(OUT_DIR, "face_landmarker_video.json"), {
        **head, "api": "FaceLandmarker, RunningMode.VIDEO, detect_for_video(image, 33 * i ms), one fresh task per "
                       "run, frames in order",
        "video": {"frames": frames, "derivation": (
            f"astronaut.png crop {VIDEO_FACE_CROP} resized to {VIDEO_FACE_SIZE} (PIL bilinear); frame i rolls it by "
            f"{VIDEO_ROLL_DEGREES} * sin(i / 4) degrees, zooms it by 1 + {VIDEO_ZOOM} * sin(i / 6) and centres it at "
            f"({VIDEO_SIZE[0] / 2} + {VIDEO_SHIFT[0]} sin(i / 5), {VIDEO_SIZE[1] / 2} + {VIDEO_SHIFT[1]} cos(i / 5)) "
            f"on a {VIDEO_SIZE[0]}x{VIDEO_SIZE[1]} canvas of RGB {VIDEO_FILL} (one PIL AFFINE transform, bilinear); "
            f"frame {VIDEO_BLANK_FRAME} is the empty canvas")},
        "runs": video})
    for run in still:
        print(f"image {run['image']:40s} n={run['num_faces']} rot={run['rotation_degrees']:3d}: "
              f"{len(run['faces'])} faces")
    for run in video:
        print(f"video n={run['num_faces']}: " + " ".join(str(len(f["faces"])) for f in run["frames"]))


if __name__ == "__main__":
    main()
