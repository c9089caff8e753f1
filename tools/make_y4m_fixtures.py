"""Makes the YUV4MPEG2 fixtures of Tests/PureVisionImageTests/Fixtures/y4m/ with ffmpeg (Debian's `ffmpeg`).

    python3 tools/make_y4m_fixtures.py

For each case ffmpeg encodes a tiny synthetic clip (its `testsrc2` pattern; an odd requested size, which ffmpeg rounds down) as a `.y4m` file,
then decodes that file back to raw planes (`<case>.planes`, `-f rawvideo` in the stream's own pixel format): the
Swift reader must return exactly these bytes. `<case>.rgb` holds OpenCV's `cvtColor(COLOR_YUV2RGB_I420)` of each
4:2:0 frame (the conversion MediaPipe uses), for the reader's RGB frames. `cases.json` lists the cases with the
frame count, size and frame rate ffmpeg reports.
"""
import json
import pathlib
import subprocess

import cv2
import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "Tests/PureVisionImageTests/Fixtures/y4m"
CASES = [
    # name, size, rate, ffmpeg pixel format, extra output options
    ("yuv420_34x26_ntsc", "34x26", "30000/1001", "yuv420p", []),
    ("yuv420_rounded_33x25", "33x25", "25", "yuv420p", []),
    ("yuv444_16x12", "16x12", "24", "yuv444p", ["-strict", "-1"]),
    ("mono_16x12", "16x12", "60", "gray", ["-strict", "-1"]),
    ("yuv420_interlaced_16x12", "16x12", "30", "yuv420p", ["-field_order", "tt"]),
]


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    manifest = []
    for name, size, rate, pixel_format, extra in CASES:
        clip = OUT / f"{name}.y4m"
        subprocess.run(
            ["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size={size}:rate={rate}",
             "-frames:v", "3", "-pix_fmt", pixel_format, *extra, "-f", "yuv4mpegpipe", str(clip)],
            check=True)
        planes = subprocess.run(
            ["ffmpeg", "-v", "error", "-i", str(clip), "-f", "rawvideo", "-pix_fmt", pixel_format, "-"],
            check=True, capture_output=True).stdout
        (OUT / f"{name}.planes").write_bytes(planes)
        # The header, not the requested size: ffmpeg rounds 4:2:0 frames down to even sizes.
        header = clip.read_bytes().split(b"\n", 1)[0].decode().split()
        width = next(int(f[1:]) for f in header if f.startswith("W"))
        height = next(int(f[1:]) for f in header if f.startswith("H"))
        numerator, _, denominator = rate.partition("/")
        entry = {"name": name, "width": width, "height": height, "frames": 3,
                 "frameRate": [int(numerator), int(denominator or 1)], "pixelFormat": pixel_format}
        if pixel_format == "yuv420p" and width % 2 == 0 and height % 2 == 0:
            frame_bytes = width * height * 3 // 2
            rgb = b"".join(
                cv2.cvtColor(np.frombuffer(planes[i * frame_bytes:(i + 1) * frame_bytes], np.uint8)
                             .reshape(height * 3 // 2, width), cv2.COLOR_YUV2RGB_I420).tobytes()
                for i in range(3))
            (OUT / f"{name}.rgb").write_bytes(rgb)
            entry["rgb"] = f"{name}.rgb"
        manifest.append(entry)
    (OUT / "cases.json").write_text(json.dumps(manifest, indent=1) + "\n")


if __name__ == "__main__":
    main()
