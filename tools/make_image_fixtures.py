#!/usr/bin/env python3
"""Image decoding fixtures for Tests/PureVisionImageTests/Fixtures/: small PNG and JPEG files and the pixels PIL decodes
from them, plus digests of PIL's decode of the shared test photos.

Reference: Pillow (pinned in tools/requirements.txt). For each fixture `<name>.<ext>` the expected pixels are
`<name>.<ext>.npy`, uint8 (H, W) or (H, W, C), `np.asarray(Image.open(f).convert(mode))` with mode L / RGB / RGBA as
`cases.json` says. Two exceptions, both because PIL has no 8-bit conversion for them that other decoders share:
16-bit gray opens as I;16, whose convert("L") clips at 255, so its expected pixels are the high bytes (what PIL does
for 16-bit RGB). PIL cannot write 16-bit RGB or interlaced PNGs, so those (and every PNG here) are written by the
small PNG writer below; PIL only reads them.

`rgb.png.L.npy` is PIL's convert("L") of rgb.png (its RGB to luma conversion).

`photos.json` lists the photos committed in photos/{faces,hands,objects}: size, mode and the SHA-256 of PIL's
decoded pixels (row-major, channels interleaved), and `photo_<stem>_rows.npy` holds their first, middle and last
rows so a mismatch can be located.

Run from the repository root: python3 tools/make_image_fixtures.py
"""
import hashlib
import io
import json
import pathlib
import struct
import zlib

import numpy as np
import PIL
from PIL import Image

OUT = pathlib.Path("Tests/PureVisionImageTests/Fixtures")
# The source photos, committed beside the fixtures (faces/, hands/, objects/ of the project's test-data folder).
PHOTOS = OUT / "photos"
WIDTH, HEIGHT = 37, 23


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def write_png(path, samples, color_type, bit_depth=8, interlace=False, palette=None, trns=None):
    """samples: (H, W, C) unsigned integers at bit_depth (8 or 16); filter type 0 on every row."""
    height, width = samples.shape[:2]
    dtype = ">u2" if bit_depth == 16 else "u1"
    samples = samples.reshape(height, width, -1).astype(dtype)

    def scanlines(pixels):
        return b"".join(b"\x00" + row.tobytes() for row in pixels)

    if interlace:
        raw = b"".join(
            scanlines(samples[y0::dy, x0::dx]) for x0, y0, dx, dy in ADAM7 if samples[y0::dy, x0::dx].size)
    else:
        raw = scanlines(samples)
    data = b"\x89PNG\r\n\x1a\n"
    data += chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, int(interlace)))
    if palette is not None:
        data += chunk(b"PLTE", np.asarray(palette, dtype="u1").tobytes())
    if trns is not None:
        data += chunk(b"tRNS", trns)
    data += chunk(b"IDAT", zlib.compress(raw, 9))
    data += chunk(b"IEND", b"")
    path.write_bytes(data)


def pattern16(channels, seed):
    """`pattern` as the high bytes, seeded random low bytes: 16-bit samples that are not multiples of 257."""
    high = pattern(channels, seed)
    return high * 256 + np.random.RandomState(seed + 100).randint(0, 256, size=high.shape).astype(np.uint32)


def pattern(channels, seed, maximum=255):
    """A smooth gradient plus seeded noise: JPEG-friendly, with every channel different."""
    rng = np.random.RandomState(seed)
    y, x = np.mgrid[0:HEIGHT, 0:WIDTH]
    planes = []
    for c in range(channels):
        base = (x * (3 + 2 * c) + y * (5 - c) * 2 + 40 * c) % 256
        planes.append(np.clip(base + rng.randint(-20, 21, size=base.shape), 0, 255))
    image = np.stack(planes, axis=-1).astype(np.float64) / 255.0
    return np.round(image * maximum).astype(np.uint32)


def expected(path, mode):
    with Image.open(path) as im:
        return np.asarray(im.convert(mode), dtype=np.uint8)


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for old in list(OUT.glob("*.png")) + list(OUT.glob("*.jpg")) + list(OUT.glob("*.npy")):  # not photos/
        old.unlink()
    cases = []

    def add(name, mode, pixels=None, source=None):
        path = OUT / name
        values = expected(path, mode) if pixels is None else pixels
        np.save(OUT / (name + ".npy"), values)
        cases.append({"file": name, "mode": mode, "shape": list(values.shape), "source": source or "PIL"})

    rgb = pattern(3, 1).astype(np.uint8)
    gray = pattern(1, 2).astype(np.uint8)[:, :, 0]
    Image.fromarray(rgb).save(OUT / "rgb_baseline.jpg", quality=90)
    add("rgb_baseline.jpg", "RGB")
    Image.fromarray(rgb).save(OUT / "rgb_progressive.jpg", quality=85, progressive=True)
    add("rgb_progressive.jpg", "RGB")
    Image.fromarray(rgb).save(OUT / "rgb_444.jpg", quality=95, subsampling=0)
    add("rgb_444.jpg", "RGB")
    Image.fromarray(rgb).save(OUT / "rgb_422.jpg", quality=75, subsampling=1)
    add("rgb_422.jpg", "RGB")
    Image.fromarray(gray).save(OUT / "gray.jpg", quality=90)
    add("gray.jpg", "L")

    # Not decoded: CMYK JPEGs are refused (tests expect .unsupportedFormat).
    Image.fromarray(rgb).convert("CMYK").save(OUT / "cmyk.jpg", quality=90)

    rgba = pattern(4, 3).astype(np.uint8)
    write_png(OUT / "rgb.png", rgb, color_type=2)
    add("rgb.png", "RGB")
    # PIL's RGB -> L conversion of rgb.png, for Image.converted(to: .gray8).
    np.save(OUT / "rgb.png.L.npy", expected(OUT / "rgb.png", "L"))
    write_png(OUT / "rgba.png", rgba, color_type=6)
    add("rgba.png", "RGBA")
    write_png(OUT / "gray.png", gray, color_type=0)
    add("gray.png", "L")
    write_png(OUT / "gray_alpha.png", rgba[:, :, 1:3], color_type=4)
    add("gray_alpha.png", "RGBA")
    palette = np.random.RandomState(4).randint(0, 256, size=(16, 3))
    indices = (pattern(1, 5)[:, :, 0] // 16).astype(np.uint8)
    write_png(OUT / "palette.png", indices, color_type=3, palette=palette)
    add("palette.png", "RGB")
    alphas = bytes(range(0, 256, 32))
    write_png(OUT / "palette_trns.png", indices, color_type=3, palette=palette, trns=alphas)
    add("palette_trns.png", "RGBA")
    write_png(OUT / "gray_trns.png", gray, color_type=0, trns=struct.pack(">H", int(gray[0, 0])))
    add("gray_trns.png", "RGBA")
    rgb16 = pattern16(3, 6)
    write_png(OUT / "rgb16.png", rgb16, color_type=2, bit_depth=16)
    add("rgb16.png", "RGB")
    rgba16 = pattern16(4, 7)
    write_png(OUT / "rgba16.png", rgba16, color_type=6, bit_depth=16)
    add("rgba16.png", "RGBA")
    gray16 = pattern16(1, 8)
    write_png(OUT / "gray16.png", gray16, color_type=0, bit_depth=16)
    add("gray16.png", "L", pixels=(gray16[:, :, 0] >> 8).astype(np.uint8), source="high byte of the 16-bit samples")
    write_png(OUT / "rgb_interlaced.png", rgb, color_type=2, interlace=True)
    add("rgb_interlaced.png", "RGB")
    write_png(OUT / "rgba16_interlaced.png", rgba16, color_type=6, bit_depth=16, interlace=True)
    add("rgba16_interlaced.png", "RGBA")

    photos = []
    for path in sorted(PHOTOS.glob("*/*")):
        if path.parent.name not in ("faces", "hands", "objects"):
            continue
        with Image.open(path) as im:
            mode = "RGBA" if "A" in im.mode or "transparency" in im.info else ("L" if im.mode == "L" else "RGB")
            pixels = np.asarray(im.convert(mode), dtype=np.uint8)
        rows = pixels[[0, pixels.shape[0] // 2, pixels.shape[0] - 1]]
        np.save(OUT / f"photo_{path.stem}_rows.npy", rows)
        photos.append({
            "file": f"{path.parent.name}/{path.name}",
            "width": pixels.shape[1], "height": pixels.shape[0], "mode": mode,
            "sha256": hashlib.sha256(np.ascontiguousarray(pixels).tobytes()).hexdigest(),
            "rows": f"photo_{path.stem}_rows.npy",
        })

    (OUT / "cases.json").write_text(json.dumps({"pillow": PIL.__version__, "cases": cases}, indent=1) + "\n")
    (OUT / "photos.json").write_text(json.dumps({"pillow": PIL.__version__, "root": PHOTOS.relative_to(OUT).as_posix(),
                                                 "photos": photos}, indent=1) + "\n")
    total = sum(f.stat().st_size for f in OUT.iterdir())
    print(f"{len(cases)} cases, {len(photos)} photos, {total} bytes in {OUT}")


if __name__ == "__main__":
    main()
