#!/usr/bin/env python3
"""YUV 4:2:0 → RGB goldens for Tests/PureVisionImageTests/Fixtures/yuv/.

Each case is a frame of random Y, U and V bytes (all 256 levels, not only the video range) in one layout (NV12, NV21,
I420), stored plane by plane with row strides longer than a row (odd ones included), and the RGB levels it must
convert to:

- video range, BT.601: OpenCV's `cv2.cvtColor(..., COLOR_YUV2RGB_NV12 / _NV21 / _I420)` (what MediaPipe uses) on
  the tightly packed planes. This is the reference the Swift conversion must match within 1 level.
- full range, and BT.709 in either range: the standard equations, in float64, rounded half up and clipped to 0…255:
      R = c·(Y − y0) + 2(1 − Kr)·s·(V − 128)
      B = c·(Y − y0) + 2(1 − Kb)·s·(U − 128)
      G = c·(Y − y0) − 2Kb(1 − Kb)/Kg·s·(U − 128) − 2Kr(1 − Kr)/Kg·s·(V − 128)
  with (Kr, Kb) = (0.299, 0.114) for BT.601 and (0.2126, 0.0722) for BT.709, Kg = 1 − Kr − Kb; video range
  c = 255/219, s = 255/224, y0 = 16; full range c = s = 1, y0 = 0. Each 2 × 2 block of pixels shares its U and V
  (no chroma interpolation, as in OpenCV).

For video BT.601 the script also reports how far the standard equations are from OpenCV (its coefficients are
rounded to 3 digits and it clamps Y − 16 at 0), to show why that encoding uses OpenCV's constants.

Files per case `<name>`: `<name>_y.npy`, `<name>_c1.npy` (NV12/NV21: the interleaved chroma plane; I420: U),
`<name>_c2.npy` (I420: V), each a 1-D uint8 array of the plane's bytes with its stride (the last row unpadded);
`<name>_rgb.npy`, uint8 (H, W, 3). `cases.json` lists every case: layout, range, matrix, width, height, the strides,
and regions of interest [x, y, width, height] (even and odd origins) whose RGB is the same slice of `<name>_rgb.npy`.

Run from the repository root: python3 tools/make_yuv_goldens.py
"""
import json
import pathlib

import cv2
import numpy as np

OUT = pathlib.Path("Tests/PureVisionImageTests/Fixtures/yuv")
MATRICES = {"bt601": (0.299, 0.114), "bt709": (0.2126, 0.0722)}
CV_CODES = {"nv12": cv2.COLOR_YUV2RGB_NV12, "nv21": cv2.COLOR_YUV2RGB_NV21, "i420": cv2.COLOR_YUV2RGB_I420}


def standard_rgb(y, u, v, video, matrix):
    """The standard equations on full-resolution planes y, u, v (float64 arrays), rounded half up and clipped."""
    kr, kb = MATRICES[matrix]
    kg = 1 - kr - kb
    c, s, y0 = (255 / 219, 255 / 224, 16) if video else (1.0, 1.0, 0)
    luma = c * (y - y0)
    uu = s * (u - 128)
    vv = s * (v - 128)
    r = luma + 2 * (1 - kr) * vv
    b = luma + 2 * (1 - kb) * uu
    g = luma - 2 * kb * (1 - kb) / kg * uu - 2 * kr * (1 - kr) / kg * vv
    rgb = np.stack([r, g, b], axis=-1)
    return np.clip(np.floor(rgb + 0.5), 0, 255).astype(np.uint8)


def strided(plane, stride, rng):
    """The plane's rows `stride` bytes apart (padding random), the last row unpadded, as 1-D bytes."""
    height, width = plane.shape
    padded = rng.integers(0, 256, (height, stride), dtype=np.uint8)
    padded[:, :width] = plane
    return padded.reshape(-1)[: (height - 1) * stride + width].copy()


def make_case(name, layout, rng_range, matrix, width, height, strides, rng):
    y = rng.integers(0, 256, (height, width), dtype=np.uint8)
    u = rng.integers(0, 256, (height // 2, width // 2), dtype=np.uint8)
    v = rng.integers(0, 256, (height // 2, width // 2), dtype=np.uint8)
    if layout == "i420":
        packed = np.concatenate([y.reshape(-1), u.reshape(-1), v.reshape(-1)]).reshape(height * 3 // 2, width)
        planes = [y, u, v]
    else:
        first, second = (u, v) if layout == "nv12" else (v, u)
        chroma = np.stack([first, second], axis=-1).reshape(height // 2, width)
        packed = np.concatenate([y, chroma])
        planes = [y, chroma]
    video = rng_range == "video"
    full_u = np.repeat(np.repeat(u, 2, axis=0), 2, axis=1).astype(np.float64)
    full_v = np.repeat(np.repeat(v, 2, axis=0), 2, axis=1).astype(np.float64)
    standard = standard_rgb(y.astype(np.float64), full_u, full_v, video, matrix)
    if video and matrix == "bt601":
        rgb = cv2.cvtColor(packed, CV_CODES[layout])
        gap = int(np.abs(rgb.astype(int) - standard.astype(int)).max())
        print(f"{name}: OpenCV vs standard equations, largest difference {gap} levels")
    else:
        rgb = standard
    assert rgb.shape == (height, width, 3) and rgb.dtype == np.uint8
    np.save(OUT / f"{name}_y.npy", strided(planes[0], strides[0], rng))
    np.save(OUT / f"{name}_c1.npy", strided(planes[1], strides[1], rng))
    if layout == "i420":
        np.save(OUT / f"{name}_c2.npy", strided(planes[2], strides[2], rng))
    np.save(OUT / f"{name}_rgb.npy", rgb)
    rois = [[0, 0, width // 2, height // 2], [3, 5, width // 2 + 1, height // 3], [width - 7, height - 5, 7, 5]]
    return {
        "name": name, "layout": layout, "range": rng_range, "matrix": matrix, "width": width, "height": height,
        "strides": strides, "rois": rois,
    }


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(20261201)
    cases = []
    # Widths over 32 reach OpenCV's vectorised loops as well as its scalar tails.
    sizes = [(70, 26), (38, 22)]
    for layout in ("nv12", "nv21", "i420"):
        for rng_range in ("video", "full"):
            for matrix in ("bt601", "bt709"):
                for index, (width, height) in enumerate(sizes):
                    chroma_row = width // 2 if layout == "i420" else width
                    # Odd and even strides, each longer than its row; I420's U and V strides differ.
                    strides = [width + 3 + 2 * index, chroma_row + 5 - 2 * index]
                    if layout == "i420":
                        strides.append(chroma_row + 1 + index)
                    name = f"{layout}_{rng_range}_{matrix}_{width}x{height}"
                    cases.append(make_case(name, layout, rng_range, matrix, width, height, strides, rng))
    (OUT / "cases.json").write_text(json.dumps({"cases": cases}, indent=1) + "\n")
    print(f"{len(cases)} cases written to {OUT}")


if __name__ == "__main__":
    main()
