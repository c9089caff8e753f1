"""MediaPipe's own model-input tensors in Tests/PureVisionTests/Fixtures/warp_mediapipe/.

Runs a two-node CalculatorGraph through MediaPipe's Python framework bindings: `ImageToTensorCalculator` (CPU,
fed an SRGB ImageFrame and a NormalizedRect) then `TensorsToFloatsCalculator`, whose FLOATS output Python can
read. Each case writes:
- `<case>_u8.npy`: the tensor as uint8 levels 0...255, shape (height, width, 3), when every float is one of
  the 256 values u * float32((max - min) / 255) + min (rounded after each step, or once as a fused
  multiply-add), so the inversion is exact; otherwise `<case>.npy`, the float32 tensor as MediaPipe produced it;
- an entry in `cases.json`: image, rect, options, tensor files, MATRIX (4x4 row-major, tensor-normalized to
  image-normalized coordinates).

Input images are PNGs (MediaPipe's loader and PIL decode them identically; see faces/images.json): face
fixtures from `../faces/`, and a hand photo saved here as PNG from its PIL decode.

Run from the repository root: `python3 tools/make_mediapipe_graph_goldens.py`.
"""

import hashlib
import json
import math
import os
import sys

import numpy as np
import PIL
from PIL import Image

import mediapipe as mp
from mediapipe.framework.formats import rect_pb2
from mediapipe.python import packet_creator, packet_getter
from mediapipe.python._framework_bindings import calculator_graph, image_frame

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(REPO_ROOT, "Tests", "PureVisionTests", "Fixtures")
OUT_DIR = os.path.join(FIXTURES, "warp_mediapipe")
# The committed copies of the source photos (faces/, hands/, objects/ as in the test-data folder they came from);
# PUREVISION_TESTDATA may point at another folder of the same layout.
PHOTO_DIR = os.environ.get(
    "PUREVISION_TESTDATA", os.path.join(REPO_ROOT, "Tests", "PureVisionImageTests", "Fixtures", "photos"))
HAND_PHOTO = ("hands", "opencvdoc_handSrc.jpg")
HAND_PNG = "hand_opencvdoc_handSrc.png"
COMMAND = "python3 tools/make_mediapipe_graph_goldens.py"

GRAPH_TEMPLATE = """
input_stream: "image"
input_stream: "rect"
output_stream: "floats"
output_stream: "matrix"
node {{
  calculator: "ImageToTensorCalculator"
  input_stream: "IMAGE:image"
  input_stream: "NORM_RECT:rect"
  output_stream: "TENSORS:tensors"
  output_stream: "MATRIX:matrix"
  options {{
    [mediapipe.ImageToTensorCalculatorOptions.ext] {{
      output_tensor_width: {width}
      output_tensor_height: {height}
      keep_aspect_ratio: {keep_aspect_ratio}
      output_tensor_float_range {{ min: {range_min} max: {range_max} }}
      border_mode: {border_mode}
    }}
  }}
}}
node {{
  calculator: "TensorsToFloatsCalculator"
  input_stream: "TENSORS:tensors"
  output_stream: "FLOATS:floats"
}}
"""


def rotated_rect(width, height, degrees):
    """The whole-image rect the Tasks API builds for ImageProcessingOptions(rotation_degrees=degrees)."""
    rect = {"x_center": 0.5, "y_center": 0.5, "width": 1.0, "height": 1.0,
            "rotation": -degrees * math.pi / 180.0}
    if degrees % 180 != 0:
        rect["width"], rect["height"] = height / width, width / height
    return rect


def cases():
    face = "faces/grace_hopper_scale50.png"
    wide = "faces/composite_two_faces.png"
    hand = f"warp_mediapipe/{HAND_PNG}"
    face_opts = {"width": 128, "height": 128, "keep_aspect_ratio": True, "range": [-1.0, 1.0],
                 "border_mode": "BORDER_ZERO"}
    hand_opts = {"width": 224, "height": 224, "keep_aspect_ratio": False, "range": [0.0, 1.0],
                 "border_mode": "BORDER_REPLICATE"}
    whole = {"x_center": 0.5, "y_center": 0.5, "width": 1.0, "height": 1.0, "rotation": 0.0}
    # Square in pixels on the 640x480 hand photo: 320 px wide and high.
    hand_rect = {"x_center": 0.45, "y_center": 0.55, "width": 0.5, "height": 320 / 480, "rotation": 0.5}
    off_edge = {"x_center": 0.85, "y_center": 0.2, "width": 0.45, "height": 0.6, "rotation": -2.0}
    return [
        ("face_letterbox_tall", face, whole, face_opts),
        ("face_letterbox_wide", wide, whole, face_opts),
        ("face_letterbox_rot90", face, rotated_rect(256, 300, 90), face_opts),
        ("face_letterbox_rot180", wide, rotated_rect(522, 320, 180), face_opts),
        ("hand_rotated_replicate", hand, hand_rect, hand_opts),
        ("hand_rotated_zero", hand, hand_rect, {**hand_opts, "border_mode": "BORDER_ZERO"}),
        ("hand_off_edge_replicate", hand, off_edge, hand_opts),
        ("hand_off_edge_zero_letterbox", hand, off_edge,
         {**hand_opts, "keep_aspect_ratio": True, "border_mode": "BORDER_ZERO"}),
        ("classifier_stretch_replicate", "faces/astronaut.png",
         {"x_center": 0.4, "y_center": 0.35, "width": 0.5, "height": 0.4, "rotation": 0.0},
         {"width": 224, "height": 224, "keep_aspect_ratio": False, "range": [-127 / 128, 1.0],
          "border_mode": "BORDER_REPLICATE"}),
    ]


def run_graph(rgb, rect, opts):
    config = GRAPH_TEMPLATE.format(
        width=opts["width"], height=opts["height"], keep_aspect_ratio=str(opts["keep_aspect_ratio"]).lower(),
        range_min=repr(float(np.float32(opts["range"][0]))), range_max=repr(float(np.float32(opts["range"][1]))),
        border_mode=opts["border_mode"])
    graph = calculator_graph.CalculatorGraph(graph_config=config)
    out = {}
    graph.observe_output_stream("floats", lambda _, p: out.__setitem__("floats", packet_getter.get_float_list(p)))
    graph.observe_output_stream("matrix", lambda _, p: out.__setitem__("matrix", packet_getter.get_float_list(p)))
    graph.start_run()
    frame = packet_creator.create_image_frame(data=np.ascontiguousarray(rgb),
                                              image_format=image_frame.ImageFormat.SRGB)
    graph.add_packet_to_input_stream("image", frame.at(0))
    graph.add_packet_to_input_stream("rect", packet_creator.create_proto(rect_pb2.NormalizedRect(**rect)).at(0))
    graph.close()
    if "floats" not in out:
        raise RuntimeError("the graph produced no tensor")
    tensor = np.asarray(out["floats"], dtype=np.float32).reshape(opts["height"], opts["width"], 3)
    return tensor, [float(v) for v in out["matrix"]]


def level_tables(value_range):
    """The 256 float32 values of u * scale + min, scale = float32((max - min) / 255), rounded twice or once."""
    lo = np.float32(value_range[0])
    scale = np.float32((np.float32(value_range[1]) - lo) / np.float32(255))
    u = np.arange(256, dtype=np.float32)
    separate = ((u * scale).astype(np.float32) + lo).astype(np.float32)
    # u * scale is exact in double (8 + 24 significant bits) and so is the sum (|sum| < 4, ulp >= 2^-32), so one
    # rounding to float32 is a fused multiply-add.
    fused = (u.astype(np.float64) * np.float64(scale) + np.float64(lo)).astype(np.float32)
    return {"separate": separate, "fused": fused}


def invert_to_u8(tensor, value_range):
    """uint8 levels whose table value equals the tensor exactly, and the table's name; (None, None) if none fits.

    "separate" (float32 multiply, then float32 add) is tried first; when both tables fit, they agree on the
    values present."""
    for name, table in level_tables(value_range).items():
        if len(np.unique(table)) != 256 or np.any(np.diff(table) <= 0):
            continue
        index = np.clip(np.searchsorted(table, tensor), 0, 255)
        if np.array_equal(table[index], tensor):
            return index.astype(np.uint8), name
    return None, None


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    Image.open(os.path.join(PHOTO_DIR, *HAND_PHOTO)).convert("RGB").save(
        os.path.join(OUT_DIR, HAND_PNG), format="PNG", optimize=True)
    entries = []
    for name, image, rect, opts in cases():
        rgb = np.asarray(Image.open(os.path.join(FIXTURES, image)).convert("RGB"))
        tensor, matrix = run_graph(rgb, rect, opts)
        levels, formula = invert_to_u8(tensor, opts["range"])
        if levels is not None:
            tensor_file = f"{name}_u8.npy"
            np.save(os.path.join(OUT_DIR, tensor_file), levels, allow_pickle=False)
        else:
            tensor_file = f"{name}.npy"
            np.save(os.path.join(OUT_DIR, tensor_file), tensor, allow_pickle=False)
        entries.append({
            "case": name, "image": image, "image_width": int(rgb.shape[1]), "image_height": int(rgb.shape[0]),
            "norm_rect": {k: float(np.float32(v)) for k, v in rect.items()},
            "options": {"output_tensor_width": opts["width"], "output_tensor_height": opts["height"],
                        "keep_aspect_ratio": opts["keep_aspect_ratio"],
                        "output_tensor_float_range": [float(np.float32(v)) for v in opts["range"]],
                        "border_mode": opts["border_mode"]},
            "tensor": tensor_file, "tensor_dtype": "uint8" if levels is not None else "float32",
            "u8_formula": formula,
            "tensor_sha256": hashlib.sha256(np.ascontiguousarray(tensor).tobytes()).hexdigest(),
            "matrix": matrix,
        })
        print(f"{name:32s} {tensor.shape} min {tensor.min():.6f} max {tensor.max():.6f} "
              f"u8 {formula or 'not exact'}")
    with open(os.path.join(OUT_DIR, "cases.json"), "w") as f:
        json.dump({
            "command": COMMAND,
            "versions": {"mediapipe": mp.__version__, "numpy": np.__version__, "pillow": PIL.__version__,
                         "python": sys.version.split()[0]},
            "graph": "ImageToTensorCalculator (CPU, OpenCV warp) -> TensorsToFloatsCalculator; input an SRGB "
                     "ImageFrame (the PNG's PIL decode) and a NormalizedRect at timestamp 0; norm_rect values are "
                     "as MediaPipe stores them (float32)",
            "hand_image_source": f"{HAND_PNG} = PIL RGB decode of testdata {'/'.join(HAND_PHOTO)} (Debian "
                                 "opencv-doc 4.6.0, Apache-2.0 AND BSD-3-Clause)",
            "layout": "tensor .npy: float32 (height, width, 3), RGB, row-major, written only when no uint8 form "
                      "is exact; tensor_sha256 is over MediaPipe's float32 tensor bytes (little-endian); "
                      "_u8.npy: (height, width, 3) uint8, the level u with "
                      "tensor == u * scale + min, scale = float32((max - min) / 255), rounded to float32 after the "
                      "multiply and after the add (u8_formula 'separate') or once at the end ('fused', a fused "
                      "multiply-add), whichever reproduces every value; 'separate' is tried first",
            "cases": entries,
        }, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
