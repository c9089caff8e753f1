"""Face mesh goldens in Tests/PureVisionTests/Fixtures/face_mesh/: MediaPipe's legacy face mesh on the committed
face photos.

Reference: `mediapipe==0.10.14`, `mp.solutions.face_mesh.FaceMesh(static_image_mode=True,
refine_landmarks=False, max_num_faces=4, min_detection_confidence=0.5, min_tracking_confidence=0.5)`: the
short-range face detector on every image, a rotated ROI from each detection's eye keypoints (scale 1.5,
square_long), `face_landmark.tflite` on a 192×192 crop, 468 landmarks projected back to the image.

Input images are the fixtures already committed in Tests/PureVisionTests/Fixtures/faces/ (made by
tools/make_face_goldens.py), decoded with PIL to RGB (the same pixels the Swift decoders produce, which that
fixture set's images.json checks). Nothing new is copied in.

Output: `face_mesh.json` = {reference, command, images: [{file, width, height, faces: [[x, y, z] × 468]}]},
landmarks normalized as MediaPipe returns them (x by width, y by height, z by width), in MediaPipe's face order.

Run from the repository root: `python3 tools/make_face_mesh_goldens.py`.
"""

import json
import os

import numpy as np
from PIL import Image

import mediapipe as mp

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FACES_DIR = os.path.join(REPO_ROOT, "Tests", "PureVisionTests", "Fixtures", "faces")
OUT_DIR = os.path.join(REPO_ROOT, "Tests", "PureVisionTests", "Fixtures", "face_mesh")
COMMAND = "python3 tools/make_face_mesh_goldens.py"
MAX_NUM_FACES = 4

IMAGES = [
    "grace_hopper.jpg",
    "astronaut.png",
    "opencvdoc_face.jpg",
    "composite_two_face_crops.png",
    "astronaut_rotp45.png",
    "grace_hopper_rotm20.png",
    "opencvdoc_face_rot90.png",
]


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    records = []
    with mp.solutions.face_mesh.FaceMesh(
            static_image_mode=True, refine_landmarks=False, max_num_faces=MAX_NUM_FACES,
            min_detection_confidence=0.5, min_tracking_confidence=0.5) as mesh:
        for name in IMAGES:
            rgb = np.asarray(Image.open(os.path.join(FACES_DIR, name)).convert("RGB"))
            result = mesh.process(np.ascontiguousarray(rgb))
            faces = []
            for face in result.multi_face_landmarks or []:
                faces.append([[float(np.float32(p.x)), float(np.float32(p.y)), float(np.float32(p.z))]
                              for p in face.landmark])
            print(f"{name}: {len(faces)} face(s)")
            records.append({"file": name, "width": int(rgb.shape[1]), "height": int(rgb.shape[0]),
                            "faces": faces})
    out = {
        "reference": f"mediapipe {mp.__version__}, solutions.face_mesh.FaceMesh(static_image_mode=True, "
                     f"refine_landmarks=False, max_num_faces={MAX_NUM_FACES}, min_detection_confidence=0.5, "
                     "min_tracking_confidence=0.5); images from Fixtures/faces decoded by PIL",
        "command": COMMAND,
        "images": records,
    }
    path = os.path.join(OUT_DIR, "face_mesh.json")
    with open(path, "w") as f:
        # float32 values printed with 9 significant digits round-trip exactly.
        json.dump(json.loads(json.dumps(out), parse_float=lambda s: float(f"{float(s):.9g}")), f,
                  separators=(",", ":"))
        f.write("\n")
    print(f"wrote {path} ({os.path.getsize(path)} bytes)")


if __name__ == "__main__":
    main()
