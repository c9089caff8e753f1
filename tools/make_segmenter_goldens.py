#!/usr/bin/env python3
"""MediaPipe ImageSegmenter goldens in Tests/PureVisionTests/Fixtures/segmenter/.

Photos (`--testdata DIR`, the shared test photo folder, only to (re)make them): five permissive photos from its
SOURCES.md — people/fr_obama.jpg, people/opencv_basketball1.png (grayscale), faces/skimage_astronaut.png,
objects/skimage_chelsea.png, objects/opencvdoc_space_shuttle.jpg — decoded by PIL, converted to RGB, reduced (PIL
bilinear) so the longer side is at most 160 px, saved as PNG. Without `--testdata` the committed PNGs are used.

Goldens (`segmenter.json` lists every case), MediaPipe Tasks 0.10.14 `ImageSegmenter`, IMAGE mode, with
output_category_mask and output_confidence_masks both on, on the four models in Models/ (deeplab_v3,
selfie_segmenter, selfie_segmentation, selfie_segmentation_landscape), for several photos and rotation_degrees
(0, 90, -90, 180):
- `<case>_category.npy`: uint8 H x W, the category mask exactly as MediaPipe returns it;
- `<case>_confidence.npy`: int16 H x W x K, round(confidence * 32767) (resolution 1.5e-5). For deeplab's 21 masks
  only every second row and column is stored (`confidence_step` 2) to keep the fixtures small.
- `errors`: MediaPipe's messages for a region of interest (the segmenter refuses one) and for both outputs off.

Legacy (`legacy` in segmenter.json): `mediapipe.solutions.selfie_segmentation.SelfieSegmentation(model_selection=0
or 1)`, whose bundled models are byte-identical to Models/selfie_segmentation.tflite and
selfie_segmentation_landscape.tflite (sha256 checked), on the people photos: `<case>_legacy.npy` int16 H x W, the
segmentation mask x 32767.

Model without metadata (`tiny_nometa.tflite`, tools/tflite_builder.py): float [1,8,8,3] -> CONV_2D 1x1 -> [1,8,8,4].
MediaPipe refuses a float model without NormalizationOptions, so its expected output (`tiny_nometa` in
segmenter.json) is LiteRT's on an 8 x 8 fixture (identity warp) as fl(v * fl(1/255)), the range PureVision gives such
a model ([0, 1]); with no activation and no resize the confidence masks are that output, class by class.

Run from the repository root:  python3 tools/make_segmenter_goldens.py [--testdata DIR]
"""

import argparse
import hashlib
import json
import os
import sys

import numpy as np
from PIL import Image

import mediapipe as mp
from mediapipe.tasks.python import vision
from mediapipe.tasks.python.core.base_options import BaseOptions
from mediapipe.tasks.python.components.containers.rect import Rect as RectF
from mediapipe.tasks.python.vision.core.image_processing_options import ImageProcessingOptions

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pvtools  # noqa: E402

OUT_DIR = os.path.join(pvtools.REPO_ROOT, "Tests", "PureVisionTests", "Fixtures", "segmenter")
MAX_SIDE = 160
SCALE = 32767
PHOTOS = [
    ("people/fr_obama.jpg", "fr_obama.png"),
    ("people/opencv_basketball1.png", "opencv_basketball1.png"),
    ("faces/skimage_astronaut.png", "skimage_astronaut.png"),
    ("objects/skimage_chelsea.png", "skimage_chelsea.png"),
    ("objects/opencvdoc_space_shuttle.jpg", "opencvdoc_space_shuttle.png"),
]
ALL = [p for _, p in PHOTOS]
# (model, photos, rotations)
TASK_CASES = [
    ("selfie_segmenter", ALL, [0]),
    ("selfie_segmenter", ["fr_obama.png"], [90]),
    ("selfie_segmenter", ["opencv_basketball1.png"], [-90]),
    ("selfie_segmenter", ["skimage_astronaut.png"], [180]),
    ("selfie_segmentation", ["fr_obama.png", "opencv_basketball1.png"], [0]),
    ("selfie_segmentation_landscape", ["fr_obama.png", "opencv_basketball1.png", "skimage_chelsea.png"], [0]),
    ("selfie_segmentation_landscape", ["fr_obama.png"], [90]),
    ("deeplab_v3", ["skimage_chelsea.png", "opencvdoc_space_shuttle.png", "fr_obama.png"], [0]),
    ("deeplab_v3", ["skimage_chelsea.png"], [90]),
]
LEGACY_CASES = [(0, "selfie_segmentation"), (1, "selfie_segmentation_landscape")]
LEGACY_PHOTOS = ["fr_obama.png", "opencv_basketball1.png", "skimage_astronaut.png"]


def make_photos(testdata):
    for source, name in PHOTOS:
        image = Image.open(os.path.join(testdata, source)).convert("RGB")
        scale = MAX_SIDE / max(image.size)
        if scale < 1:
            size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
            image = image.resize(size, Image.BILINEAR)
        image.save(os.path.join(OUT_DIR, name))


def load(name):
    return np.ascontiguousarray(np.asarray(Image.open(os.path.join(OUT_DIR, name)).convert("RGB"), dtype=np.uint8))


def segmenter(model, category=True, confidence=True):
    return vision.ImageSegmenter.create_from_options(vision.ImageSegmenterOptions(
        base_options=BaseOptions(model_asset_path=os.path.join(pvtools.MODELS_DIR, model + ".tflite")),
        output_category_mask=category, output_confidence_masks=confidence))


def quantized(values):
    return np.round(np.asarray(values, dtype=np.float64) * SCALE).astype(np.int16)


def task_case(model, photo, rotation):
    rgb = load(photo)
    task = segmenter(model)
    options = ImageProcessingOptions(rotation_degrees=rotation) if rotation else None
    result = task.segment(mp.Image(image_format=mp.ImageFormat.SRGB, data=rgb), options)
    labels = task.labels
    task.close()
    stem = f"{model}_{os.path.splitext(photo)[0]}_r{rotation % 360}"
    category = result.category_mask.numpy_view().copy()
    confidence = np.stack([m.numpy_view() for m in result.confidence_masks], axis=-1).astype(np.float32)
    assert category.shape == rgb.shape[:2] and confidence.shape[:2] == rgb.shape[:2]
    step = 2 if confidence.shape[-1] > 1 else 1
    pvtools.save_npy(os.path.join(OUT_DIR, stem + "_category.npy"), category.astype(np.uint8))
    pvtools.save_npy(os.path.join(OUT_DIR, stem + "_confidence.npy"), quantized(confidence[::step, ::step]))
    counts = np.bincount(category.ravel(), minlength=256)
    return {"name": stem, "model": f"{model}.tflite", "image": photo, "rotation": rotation,
            "width": rgb.shape[1], "height": rgb.shape[0], "labels": list(labels),
            "category": stem + "_category.npy", "confidence": stem + "_confidence.npy",
            "confidence_scale": SCALE, "confidence_step": step, "masks": int(confidence.shape[-1]),
            "category_values": {str(v): int(c) for v, c in enumerate(counts) if c}}


def legacy_case(selection, model, photo):
    from mediapipe.python.solutions import selfie_segmentation
    bundled = os.path.join(os.path.dirname(mp.__file__), "modules", "selfie_segmentation", model + ".tflite")
    ours = os.path.join(pvtools.MODELS_DIR, model + ".tflite")
    if hashlib.sha256(open(bundled, "rb").read()).digest() != hashlib.sha256(open(ours, "rb").read()).digest():
        raise SystemExit(f"the legacy solution's {model}.tflite differs from Models/")
    rgb = load(photo)
    with selfie_segmentation.SelfieSegmentation(model_selection=selection) as solution:
        mask = solution.process(rgb).segmentation_mask
    stem = f"legacy_{model}_{os.path.splitext(photo)[0]}"
    assert mask.shape == rgb.shape[:2]
    pvtools.save_npy(os.path.join(OUT_DIR, stem + "_legacy.npy"), quantized(mask))
    return {"name": stem, "model": f"{model}.tflite", "model_selection": selection, "image": photo,
            "width": rgb.shape[1], "height": rgb.shape[0], "mask": stem + "_legacy.npy", "scale": SCALE}


def tiny_nometa():
    import tflite_builder as tb
    rng = np.random.default_rng(20)
    b = tb.ModelBuilder("PureVision segmenter fixture without metadata")
    y = tb.add_conv2d(b, b.input([1, 8, 8, 3]), rng, 4, kernel=(1, 1))
    model = b.finish([y])
    with open(os.path.join(OUT_DIR, "tiny_nometa.tflite"), "wb") as f:
        f.write(model)
    rgb = np.asarray(Image.fromarray(load("skimage_chelsea.png")).resize((8, 8), Image.BILINEAR), dtype=np.uint8)
    Image.fromarray(rgb).save(os.path.join(OUT_DIR, "tiny_8x8.png"))
    x = (rgb.astype(np.float32) * np.float32(1 / 255))[None]
    (out,) = pvtools.run(pvtools.reference_interpreter(model_content=model), [x])
    pvtools.save_npy(os.path.join(OUT_DIR, "tiny_nometa_output.npy"), out[0].astype(np.float32))
    return {"model": "tiny_nometa.tflite", "image": "tiny_8x8.png", "output": "tiny_nometa_output.npy"}


def error_of(fn):
    try:
        fn()
    except Exception as error:  # MediaPipe raises ValueError / RuntimeError with the C++ status message
        return f"{type(error).__name__}: {error}"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--testdata", help="the shared test photo folder, to remake the fixture photos")
    args = parser.parse_args()
    os.makedirs(OUT_DIR, exist_ok=True)
    if args.testdata:
        make_photos(args.testdata)
    cases = [task_case(model, photo, rotation)
             for model, photos, rotations in TASK_CASES for photo in photos for rotation in rotations]
    legacy = [legacy_case(selection, model, photo) for selection, model in LEGACY_CASES for photo in LEGACY_PHOTOS]
    roi = ImageProcessingOptions(region_of_interest=RectF(left=0.1, top=0.1, right=0.9, bottom=0.9))
    errors = {
        "region_of_interest": error_of(lambda: segmenter("selfie_segmenter").segment(
            mp.Image(image_format=mp.ImageFormat.SRGB, data=load("fr_obama.png")), roi)),
        "no_output": error_of(lambda: segmenter("selfie_segmenter", category=False, confidence=False)),
    }
    manifest = {"generator": "python3 tools/make_segmenter_goldens.py", "mediapipe": mp.__version__,
                "images": {name: {"source": source} for source, name in PHOTOS},
                "cases": cases, "legacy": legacy, "errors": errors, "tiny_nometa": tiny_nometa()}
    with open(os.path.join(OUT_DIR, "segmenter.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    print(f"{len(cases)} task cases, {len(legacy)} legacy cases; errors: {errors}")


if __name__ == "__main__":
    sys.exit(main())
