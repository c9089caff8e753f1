#!/usr/bin/env python3
"""Tiny JPEGs with EXIF orientations for Tests/PureVisionImageTests/Fixtures/orientation/.

One 12 × 8 picture (four colored blocks and a marker pixel row, so every flip and turn is visible) saved by Pillow
at quality 100 without chroma subsampling, once per EXIF orientation 1…8 with Pillow's own EXIF writer
(a big-endian `MM` TIFF block, after the JFIF APP0 segment), plus hand-built variants of the APP1 segment:

- `orient_6_le.jpg`: orientation 6 in a little-endian (`II`) TIFF block, first segment after SOI;
- `orient_3_second_ifd_entry.jpg`: orientation 3 as the second IFD0 entry after an ImageDescription (0x010E);
- `orient_9.jpg`: the out-of-range value 9 (no orientation);
- `exif_bad_offset.jpg`: an IFD0 offset past the end of the block (no orientation);
- `exif_truncated_entry.jpg`: an entry count larger than the block holds (no orientation);
- `no_exif.jpg`: no APP1 at all.

Reference: Pillow (pinned in tools/requirements.txt). `cases.json` lists, for each file, the orientation tag
Pillow reads (`Image.getexif().get(0x0112)`, null when it has none or cannot read the block) and the name of the
`ImageOrientation` that value stands for (`up` when it is not 1…8); `<file>.upright.npy` holds Pillow's
`ImageOps.exif_transpose(image).convert("RGB")` pixels, uint8 (H, W, 3), which `uprightImage()` must reproduce
(the decoder itself matches Pillow's pixels, see make_image_fixtures.py).

Run from the repository root: python3 tools/make_orientation_fixtures.py
"""
import io
import json
import pathlib
import struct

import numpy as np
from PIL import Image, ImageOps

OUT = pathlib.Path("Tests/PureVisionImageTests/Fixtures/orientation")
NAMES = {1: "up", 2: "upMirrored", 3: "down", 4: "downMirrored", 5: "leftMirrored", 6: "right", 7: "rightMirrored",
         8: "left"}


def picture():
    pixels = np.zeros((8, 12, 3), dtype=np.uint8)
    pixels[:4, :6] = (220, 30, 30)
    pixels[:4, 6:] = (30, 200, 30)
    pixels[4:, :6] = (30, 30, 220)
    pixels[4:, 6:] = (230, 230, 40)
    pixels[0, :3] = (255, 255, 255)
    return Image.fromarray(pixels)


def jpeg_bytes(image, exif=None):
    buffer = io.BytesIO()
    options = {"quality": 100, "subsampling": 0}
    if exif is not None:
        options["exif"] = exif
    image.save(buffer, "JPEG", **options)
    return buffer.getvalue()


def tiff_block(entries, big_endian=False, ifd_offset=8, count_override=None):
    """A TIFF structure with one IFD of (tag, type, count, value-bytes) entries."""
    e = ">" if big_endian else "<"
    head = (b"MM" if big_endian else b"II") + struct.pack(e + "HI", 42, ifd_offset)
    body = struct.pack(e + "H", len(entries) if count_override is None else count_override)
    for tag, kind, count, value in entries:
        body += struct.pack(e + "HHI", tag, kind, count) + value.ljust(4, b"\0")
    return head + body + struct.pack(e + "I", 0)


def short(value, big_endian=False):
    return struct.pack(">H" if big_endian else "<H", value)


def with_app1(jpeg, tiff):
    """The JPEG with an EXIF APP1 segment holding `tiff` right after SOI."""
    payload = b"Exif\0\0" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    base = picture()
    plain = jpeg_bytes(base)
    files = {}
    for value in range(1, 9):
        exif = Image.Exif()
        exif[0x0112] = value
        files[f"orient_{value}.jpg"] = jpeg_bytes(base, exif=exif.tobytes())
    files["orient_6_le.jpg"] = with_app1(plain, tiff_block([(0x0112, 3, 1, short(6))]))
    files["orient_3_second_ifd_entry.jpg"] = with_app1(
        plain, tiff_block([(0x010E, 2, 4, b"abc\0"), (0x0112, 3, 1, short(3))]))
    files["orient_9.jpg"] = with_app1(plain, tiff_block([(0x0112, 3, 1, short(9))]))
    files["exif_bad_offset.jpg"] = with_app1(plain, tiff_block([(0x0112, 3, 1, short(6))], ifd_offset=4000))
    files["exif_truncated_entry.jpg"] = with_app1(plain, tiff_block([], count_override=40))
    files["no_exif.jpg"] = plain
    cases = []
    for name, data in files.items():
        (OUT / name).write_bytes(data)
        image = Image.open(OUT / name)
        try:
            value = image.getexif().get(0x0112)
        except Exception:  # Pillow could not read the block: no orientation
            value = None
        upright = np.asarray(ImageOps.exif_transpose(image).convert("RGB"))
        np.save(OUT / f"{name}.upright.npy", upright)
        cases.append({"file": name, "pillow_tag": value, "orientation": NAMES.get(value, "up")})
        print(name, value, upright.shape)
    (OUT / "cases.json").write_text(json.dumps({"cases": cases}, indent=1) + "\n")


if __name__ == "__main__":
    main()
