"""MediaPipe ImageEmbedder goldens in Tests/PureVisionTests/Fixtures/embedder/.

Images: the nine PNGs of Tests/PureVisionTests/Fixtures/detector/ (object photos and photos with people, made by
tools/make_detector_goldens.py; run that first).

Goldens (`embedder_efficientnet.json`): MediaPipe Tasks `ImageEmbedder` 0.10.14, IMAGE mode, with
`Models/efficientnet_lite0_embedder.tflite`, on every image with the four combinations of l2_normalize and quantize
(float embeddings as float32 values, quantized ones as int8 values), plus one region of interest and rotation 90
(plain options) on two images; `similarities`: `ImageEmbedder.cosine_similarity` of consecutive image pairs for
each option set; `errors`: what it raises for a float/quantized pair.

Run from the repository root: `python3 tools/make_embedder_goldens.py`.
"""

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

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMAGE_DIR = os.path.join(REPO_ROOT, "Tests", "PureVisionTests", "Fixtures", "detector")
OUT_DIR = os.path.join(REPO_ROOT, "Tests", "PureVisionTests", "Fixtures", "embedder")
MODEL = os.path.join(REPO_ROOT, "Models", "efficientnet_lite0_embedder.tflite")
COMMAND = "python3 tools/make_embedder_goldens.py"
OPTION_SETS = [(False, False), (True, False), (False, True), (True, True)]
EXTRA = [("skimage_chelsea.png", (0.1, 0.2, 0.7, 0.9), 0), ("fr_obama.png", None, 90)]


def embedder(l2, quantize):
    return vision.ImageEmbedder.create_from_options(vision.ImageEmbedderOptions(
        base_options=BaseOptions(model_asset_path=MODEL), running_mode=vision.RunningMode.IMAGE,
        l2_normalize=l2, quantize=quantize))


def load(name):
    rgb = np.ascontiguousarray(np.asarray(Image.open(os.path.join(IMAGE_DIR, name)).convert("RGB")))
    return mp.Image(image_format=mp.ImageFormat.SRGB, data=rgb)


def encode(embedding, quantize):
    values = embedding.embedding
    if quantize:
        assert values.dtype == np.uint8
        vector = {"quantized_embedding": [int(v) for v in values.view(np.int8)]}
    else:
        vector = {"float_embedding": [float(np.float32(v)) for v in values]}
    return {"head_index": embedding.head_index, "head_name": embedding.head_name, **vector}


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    images = sorted(f for f in os.listdir(IMAGE_DIR) if f.endswith(".png"))
    runs, similarities = [], []
    for l2, quantize in OPTION_SETS:
        task = embedder(l2, quantize)
        results = []
        for name in images:
            result = task.embed(load(name))
            results.append(result)
            runs.append({"image": name, "options": {"l2_normalize": l2, "quantize": quantize},
                         "embeddings": [encode(e, quantize) for e in result.embeddings]})
        for a, b in zip(range(len(images)), range(1, len(images))):
            similarities.append({"images": [images[a], images[b]], "options": {"l2_normalize": l2, "quantize": quantize},
                                 "similarity": float(vision.ImageEmbedder.cosine_similarity(
                                     results[a].embeddings[0], results[b].embeddings[0]))})
        if not l2 and not quantize:
            for name, roi, rotation in EXTRA:
                rect = None if roi is None else RectF(left=roi[0], top=roi[1], right=roi[2], bottom=roi[3])
                result = task.embed(load(name), ImageProcessingOptions(region_of_interest=rect,
                                                                       rotation_degrees=rotation))
                options = {"l2_normalize": False, "quantize": False, "rotation_degrees": rotation}
                if roi is not None:
                    options["region_of_interest"] = list(roi)
                runs.append({"image": name, "options": options,
                             "embeddings": [encode(e, False) for e in result.embeddings]})
            float_example = results[0].embeddings[0]
        if quantize and l2:
            quantized_example = results[0].embeddings[0]
        task.close()
    errors = []
    try:
        vision.ImageEmbedder.cosine_similarity(float_example, quantized_example)
        errors.append({"case": "float vs quantized", "error": None})
    except Exception as error:
        errors.append({"case": "float vs quantized", "error_type": type(error).__name__, "error": str(error)})
    payload = {"command": COMMAND, "versions": {"mediapipe": mp.__version__, "numpy": np.__version__,
                                                "python": sys.version.split()[0]},
               "model": "Models/efficientnet_lite0_embedder.tflite", "image_dir": "../detector",
               "runs": runs, "similarities": similarities, "errors": errors}
    with open(os.path.join(OUT_DIR, "embedder_efficientnet.json"), "w") as f:
        json.dump(payload, f, separators=(",", ":"))
        f.write("\n")
    print(f"{len(runs)} runs, {len(similarities)} similarities")


if __name__ == "__main__":
    main()
