#!/usr/bin/env python3
"""NumPy re-implementation of MediaPipe 0.10.14's CPU ImageToTensor warp, and the goldens it makes.

MediaPipe 0.10.14 crops and rotates with OpenCV 3.4.10's `warpPerspective` (INTER_LINEAR) on the 8-bit image.
This script restates that arithmetic from docs/mediapipe-pipelines.md ("Verified numerics"), independently of the
Swift code, so that two implementations of the recipe can be compared bit for bit:

1. ROI: centre, size = normalized rect x image size (float32); letterbox (PadRoi) when aspect is kept.
2. Corners (float32): angle = float(float(theta*180) / pi); a = float(sin(angle*pi/180))*0.5,
   b = float(cos(..))*0.5; corner0 = (cx - a*h - b*w, cy + b*h - a*w), corner1 = (cx + a*h - b*w, cy - b*h - a*w),
   corners 2 and 3 mirrored through the centre; mapped to (0,H), (0,0), (W,0), (W,H).
3. 8x8 system (products of float32 coordinates rounded to float32, stored as float64) solved by Gaussian
   elimination with partial pivoting in float64; the 3x3 result inverted with cofactors in float64.
4. Per output pixel, in column blocks of bw0 = min(1024 // min(16, H), W): fX = (X0 + m0*j) * (32 / (W0 + m6*j)),
   rounded half to even; integer part X >> 5, fraction X & 31.
5. Weights (32-fx)(32-fy), fx(32-fy), (32-fx)fy, fx*fy; value = (sum + 512) >> 10; outside neighbours are 0
   (zero border) or the clamped pixel (replicate).

The goldens (`Tests/PureVisionTests/Fixtures/warp/`): `source_<name>.npy` (uint8 HxWxC real photos, downscaled
with cv2.INTER_AREA so the fixtures stay small), `case_<name>.npy` (uint8 warped image, before normalization, with
the source's channel count) and `cases.json` (per case: source, rect, options, and the expected letterbox padding
and 4x4 matrix as float32 values). It also reports how far OpenCV 5's own `cv2.warpPerspective` is from the recipe.

Run from the repository root: `python3 tools/warp_reference.py` (`--check` compares without writing).
"""

import argparse
import ctypes
import ctypes.util
import json
import math
import os
import sys

import cv2
import numpy as np

f32 = np.float32
_libm = ctypes.CDLL(ctypes.util.find_library("m"))
_libm.cosf.restype = ctypes.c_float
_libm.cosf.argtypes = [ctypes.c_float]
_libm.sinf.restype = ctypes.c_float
_libm.sinf.argtypes = [ctypes.c_float]


def cosf(x):
    """glibc cosf, as std::cos(float) in MediaPipe (NumPy's float32 cos may differ by an ulp)."""
    return f32(_libm.cosf(float(x)))


def sinf(x):
    return f32(_libm.sinf(float(x)))


# --- ImageProcessingOptions -> NormalizedRect (MediaPipe 0.10.14 Python API, double arithmetic) -----------------

def rect_from_options(roi, rotation_degrees, image_width, image_height):
    """roi = (left, top, right, bottom) float32 values or None; returns float32 (xc, yc, w, h, rotation)."""
    assert rotation_degrees % 90 == 0
    rotation = -rotation_degrees * math.pi / 180.0
    xc, yc, w, h = 0.5, 0.5, 1.0, 1.0
    if roi is not None:
        left, top, right, bottom = (float(f32(v)) for v in roi)
        xc, yc = (left + right) / 2.0, (top + bottom) / 2.0
        w, h = right - left, bottom - top
    if rotation_degrees % 180 != 0:
        w, h = h * image_height / image_width, w * image_width / image_height
    return tuple(f32(v) for v in (xc, yc, w, h, rotation))


# --- GetRoi, PadRoi, matrix -----------------------------------------------------------------------------------

def get_roi(image_width, image_height, rect):
    if rect is None:
        return [f32(0.5) * f32(image_width), f32(0.5) * f32(image_height), f32(image_width), f32(image_height),
                f32(0)]
    xc, yc, w, h, rot = (f32(v) for v in rect)
    return [xc * f32(image_width), yc * f32(image_height), w * f32(image_width), h * f32(image_height), rot]


def pad_roi(tensor_width, tensor_height, keep_aspect, roi):
    if not keep_aspect:
        return roi, [f32(0)] * 4
    tensor_aspect = f32(tensor_height) / f32(tensor_width)
    roi_aspect = roi[3] / roi[2]
    vertical = horizontal = f32(0)
    if tensor_aspect > roi_aspect:
        new_w, new_h = roi[2], roi[2] * tensor_aspect
        vertical = (f32(1) - roi_aspect / tensor_aspect) / f32(2)
    else:
        new_w, new_h = roi[3] / tensor_aspect, roi[3]
        horizontal = (f32(1) - tensor_aspect / roi_aspect) / f32(2)
    return [roi[0], roi[1], new_w, new_h, roi[4]], [horizontal, vertical, horizontal, vertical]


def transform_matrix(roi, image_width, image_height):
    a, b = roi[2], roi[3]
    c, d = cosf(roi[4]), sinf(roi[4])
    e, f = roi[0], roi[1]
    g, h = f32(1) / f32(image_width), f32(1) / f32(image_height)
    half = f32(0.5)
    m = [f32(0)] * 16
    m[0] = a * c * g
    m[1] = -b * d * g
    m[3] = (-half * a * c + half * b * d + e) * g
    m[4] = a * d * h
    m[5] = b * c * h
    m[7] = (-half * b * c - half * a * d + f) * h
    m[10] = a * g
    m[15] = f32(1)
    return m


# --- The OpenCV 3.4.10 warp -----------------------------------------------------------------------------------

def box_points(roi):
    cx, cy, w, h, rot = roi
    angle = f32(float(rot * f32(180)) / math.pi)
    radians = float(angle) * math.pi / 180.0
    b = f32(math.cos(radians)) * f32(0.5)
    a = f32(math.sin(radians)) * f32(0.5)
    p0 = (cx - a * h - b * w, cy + b * h - a * w)
    p1 = (cx + a * h - b * w, cy - b * h - a * w)
    two = f32(2)
    p2 = (two * cx - p0[0], two * cy - p0[1])
    p3 = (two * cx - p1[0], two * cy - p1[1])
    return [p0, p1, p2, p3]


def solve_lu(a, b):
    """Gaussian elimination with partial pivoting, in the order of OpenCV's LUImpl; None if singular."""
    a = [row[:] for row in a]
    b = b[:]
    m = len(b)
    for i in range(m):
        k = i
        for j in range(i + 1, m):
            if abs(a[j][i]) > abs(a[k][i]):
                k = j
        if abs(a[k][i]) < sys.float_info.epsilon * 100:
            return None
        if k != i:
            a[i], a[k] = a[k], a[i]
            b[i], b[k] = b[k], b[i]
        d = -1.0 / a[i][i]
        for j in range(i + 1, m):
            alpha = a[j][i] * d
            for c in range(i + 1, m):
                a[j][c] += alpha * a[i][c]
            b[j] += alpha * b[i]
    for i in range(m - 1, -1, -1):
        s = b[i]
        for c in range(i + 1, m):
            s -= a[i][c] * b[c]
        b[i] = s / a[i][i]
    return b


def perspective_transform(src, dst):
    a = [[0.0] * 8 for _ in range(8)]
    b = [0.0] * 8
    for i in range(4):
        sx, sy = src[i]
        dx, dy = dst[i]
        a[i][0] = a[i + 4][3] = float(sx)
        a[i][1] = a[i + 4][4] = float(sy)
        a[i][2] = a[i + 4][5] = 1.0
        a[i][6] = float(-sx * dx)
        a[i][7] = float(-sy * dx)
        a[i + 4][6] = float(-sx * dy)
        a[i + 4][7] = float(-sy * dy)
        b[i] = float(dx)
        b[i + 4] = float(dy)
    x = solve_lu(a, b)
    if x is None:
        x = [0.0] * 8
    return x + [1.0]


def invert3(m):
    def s(r, c):
        return m[r * 3 + c]
    det = (s(0, 0) * (s(1, 1) * s(2, 2) - s(1, 2) * s(2, 1))
           - s(0, 1) * (s(1, 0) * s(2, 2) - s(1, 2) * s(2, 0))
           + s(0, 2) * (s(1, 0) * s(2, 1) - s(1, 1) * s(2, 0)))
    if det == 0.0:
        return [0.0] * 9
    d = 1.0 / det
    return [
        (s(1, 1) * s(2, 2) - s(1, 2) * s(2, 1)) * d,
        (s(0, 2) * s(2, 1) - s(0, 1) * s(2, 2)) * d,
        (s(0, 1) * s(1, 2) - s(0, 2) * s(1, 1)) * d,
        (s(1, 2) * s(2, 0) - s(1, 0) * s(2, 2)) * d,
        (s(0, 0) * s(2, 2) - s(0, 2) * s(2, 0)) * d,
        (s(0, 2) * s(1, 0) - s(0, 0) * s(1, 2)) * d,
        (s(1, 0) * s(2, 1) - s(1, 1) * s(2, 0)) * d,
        (s(0, 1) * s(2, 0) - s(0, 0) * s(2, 1)) * d,
        (s(0, 0) * s(1, 1) - s(0, 1) * s(1, 0)) * d,
    ]


def warp(image, minv, out_w, out_h, border):
    """The fixed-point warp of an HxWxC uint8 image by the destination->source matrix minv (float64[9])."""
    src_h, src_w, channels = image.shape
    bh0 = min(16, out_h)
    bw0 = min(1024 // bh0, out_w)
    x = np.arange(out_w, dtype=np.int64)
    x_block = (x // bw0) * bw0
    j = (x - x_block).astype(np.float64)
    x_block = x_block.astype(np.float64)
    m = [float(v) for v in minv]
    out = np.zeros((out_h, out_w, channels), dtype=np.uint8)
    src = image.astype(np.int64)
    for y in range(out_h):
        yd = float(y)
        x0 = m[0] * x_block + m[1] * yd + m[2]
        y0 = m[3] * x_block + m[4] * yd + m[5]
        w0 = m[6] * x_block + m[7] * yd + m[8]
        w = w0 + m[6] * j
        with np.errstate(divide="ignore"):
            w = np.where(w != 0, 32.0 / np.where(w != 0, w, 1.0), 0.0)
        fx = np.clip((x0 + m[0] * j) * w, -2147483648.0, 2147483647.0)
        fy = np.clip((y0 + m[3] * j) * w, -2147483648.0, 2147483647.0)
        xi = np.rint(fx).astype(np.int64)
        yi = np.rint(fy).astype(np.int64)
        sx = np.clip(xi >> 5, -32768, 32767)
        sy = np.clip(yi >> 5, -32768, 32767)
        ax = xi & 31
        ay = yi & 31
        weights = [(32 - ax) * (32 - ay), ax * (32 - ay), (32 - ax) * ay, ax * ay]
        total = np.zeros((out_w, channels), dtype=np.int64)
        for (dx, dy), wt in zip(((0, 0), (1, 0), (0, 1), (1, 1)), weights):
            px, py = sx + dx, sy + dy
            if border == "replicate":
                value = src[np.clip(py, 0, src_h - 1), np.clip(px, 0, src_w - 1)]
            else:
                inside = (px >= 0) & (px < src_w) & (py >= 0) & (py < src_h)
                value = src[np.clip(py, 0, src_h - 1), np.clip(px, 0, src_w - 1)] * inside[:, None]
            total += value * wt[:, None]
        out[y] = ((total + 512) >> 10).astype(np.uint8)
    return out


def image_to_tensor(image, rect, out_w, out_h, keep_aspect, border):
    """Returns (warped uint8, padding[4] float32, matrix[16] float32, forward 3x3 float64, inverse 3x3)."""
    src_h, src_w = image.shape[:2]
    roi = get_roi(src_w, src_h, rect)
    roi, padding = pad_roi(out_w, out_h, keep_aspect, roi)
    matrix = transform_matrix(roi, src_w, src_h)
    corners = box_points(roi)
    dst = [(f32(0), f32(out_h)), (f32(0), f32(0)), (f32(out_w), f32(0)), (f32(out_w), f32(out_h))]
    forward = perspective_transform(corners, dst)
    inverse = invert3(forward)
    return warp(image, inverse, out_w, out_h, border), padding, matrix, forward, inverse


# --- Fixtures -------------------------------------------------------------------------------------------------

# The committed copies of the source photos (relative to the repository root, where the tool runs);
# PUREVISION_TESTDATA may point at another folder of the same layout.
TESTDATA = os.environ.get("PUREVISION_TESTDATA", "Tests/PureVisionImageTests/Fixtures/photos")
FIXTURES = "Tests/PureVisionTests/Fixtures/warp"

# name: (photo below TESTDATA, output width, gray?)
SOURCES = {
    "hopper": ("faces/matplotlib_grace_hopper.jpg", 150, False),
    "hand": ("hands/opencvdoc_handSrc.jpg", 200, False),
    "chelsea": ("objects/skimage_chelsea.png", 181, False),
    "coffee_gray": ("objects/skimage_coffee.png", 163, True),
}

# rect: [xc, yc, w, h, rotation] or None; options: {"roi": [l, t, r, b] | None, "rotationDegrees": int}.
CASES = [
    dict(name="face_letterbox_128", source="hopper", rect=None, width=128, height=128, keep=True, border="zero",
         range=[-1.0, 1.0]),
    dict(name="palm_letterbox_192", source="hand", rect=None, width=192, height=192, keep=True, border="zero",
         range=[0.0, 1.0]),
    dict(name="hand_rotated_roi_224", source="hand", rect=[0.46, 0.52, 0.62, 0.83, 0.7], width=224, height=224,
         keep=False, border="replicate", range=[0.0, 1.0]),
    dict(name="rotated_letterbox_zero_192", source="chelsea", rect=[0.55, 0.45, 0.5, 0.9, -1.1], width=192,
         height=192, keep=True, border="zero", range=[0.0, 1.0]),
    dict(name="options_roi_rot90_224", source="chelsea",
         options={"roi": [0.1, 0.2, 0.8, 0.95], "rotationDegrees": 90}, width=224, height=224, keep=False,
         border="replicate", range=[-0.9921875, 1.0]),
    dict(name="gray_letterbox_128", source="coffee_gray", rect=None, width=128, height=128, keep=True,
         border="zero", range=[0.0, 1.0]),
    dict(name="gray_rotated_replicate_192", source="coffee_gray", rect=[0.3, 0.7, 0.9, 0.7, 2.4], width=192,
         height=192, keep=False, border="replicate", range=[0.0, 1.0]),
    dict(name="options_roi_rot270_letterbox_128", source="hopper",
         options={"roi": [0.25, 0.05, 0.9, 0.6], "rotationDegrees": 270}, width=128, height=128, keep=True,
         border="replicate", range=[-1.0, 1.0]),
    dict(name="options_rot180_outside_zero_128", source="hand",
         options={"roi": [0.0, 0.3, 0.55, 1.0], "rotationDegrees": -180}, width=128, height=128, keep=False,
         border="zero", range=[0.0, 1.0]),
    dict(name="flat_150x12_blocks", source="chelsea", rect=[0.5, 0.5, 1.3, 0.2, 0.3], width=150, height=12,
         keep=False, border="replicate", range=[0.0, 1.0]),
]


def load_source(name):
    path, width, gray = SOURCES[name]
    image = cv2.imread(os.path.join(TESTDATA, path), cv2.IMREAD_GRAYSCALE if gray else cv2.IMREAD_COLOR)
    height = round(image.shape[0] * width / image.shape[1])
    image = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)
    if gray:
        return image[:, :, None]
    return np.ascontiguousarray(image[:, :, ::-1])


def case_rect(case, image):
    if "options" in case:
        opts = case["options"]
        return rect_from_options(opts["roi"], opts["rotationDegrees"], image.shape[1], image.shape[0])
    return None if case["rect"] is None else tuple(f32(v) for v in case["rect"])


def compare_opencv5(image, forward, out_w, out_h, border, expected):
    """cv2.warpPerspective (OpenCV 5) on the same forward matrix; returns (pixels differing, max difference)."""
    mode = cv2.BORDER_REPLICATE if border == "replicate" else cv2.BORDER_CONSTANT
    got = cv2.warpPerspective(image, np.array(forward, dtype=np.float64).reshape(3, 3), (out_w, out_h),
                              flags=cv2.INTER_LINEAR, borderMode=mode, borderValue=0)
    got = got.reshape(expected.shape)
    diff = np.abs(got.astype(np.int32) - expected.astype(np.int32))
    return int(np.count_nonzero(diff.max(axis=2))), int(diff.max())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed goldens, write nothing")
    args = parser.parse_args()
    if not args.check:
        os.makedirs(FIXTURES, exist_ok=True)
    sources = {name: load_source(name) for name in SOURCES}
    manifest = {"generator": "tools/warp_reference.py", "opencv_python_compared": cv2.__version__,
                "sources": {}, "cases": []}
    for name, image in sources.items():
        manifest["sources"][name] = {"file": f"source_{name}.npy", "photo": SOURCES[name][0],
                                     "shape": list(image.shape)}
        if not args.check:
            np.save(os.path.join(FIXTURES, f"source_{name}.npy"), image)
    failures = 0
    for case in CASES:
        image = sources[case["source"]]
        rect = case_rect(case, image)
        warped, padding, matrix, forward, _ = image_to_tensor(image, rect, case["width"], case["height"],
                                                              case["keep"], case["border"])
        differing, worst = compare_opencv5(image, forward, case["width"], case["height"], case["border"], warped)
        total = case["width"] * case["height"]
        print(f"{case['name']:36s} {image.shape[1]}x{image.shape[0]}x{image.shape[2]} -> "
              f"{case['width']}x{case['height']}: OpenCV 5 differs at {differing}/{total} pixels "
              f"({100.0 * differing / total:.2f}%), max {worst} levels")
        entry = {k: v for k, v in case.items() if k != "rect"}
        entry["rect"] = None if rect is None else [float(v) for v in rect]
        entry["file"] = f"case_{case['name']}.npy"
        entry["padding"] = [float(v) for v in padding]
        entry["matrix"] = [float(v) for v in matrix]
        entry["opencv5_differing_pixels"] = differing
        entry["opencv5_max_difference"] = worst
        manifest["cases"].append(entry)
        path = os.path.join(FIXTURES, entry["file"])
        if args.check:
            if not np.array_equal(np.load(path), warped):
                print(f"  MISMATCH with {path}")
                failures += 1
        else:
            np.save(path, warped)
    if not args.check:
        with open(os.path.join(FIXTURES, "cases.json"), "w") as out:
            json.dump(manifest, out, indent=1)
            out.write("\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
