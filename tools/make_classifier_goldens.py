"""MediaPipe ImageClassifier goldens in Tests/PureVisionTests/Fixtures/classifier/.

Images: the five object photos of the shared testdata and nine scikit-image sample images (public domain or CC0,
see SKIMAGE), each decoded by PIL, converted to RGB, reduced (PIL bilinear) so its longer side is at most 300 px
and saved as PNG, so every decoder sees the same pixels. `images.json` holds their sources and the SHA-256 of the
RGB bytes as MediaPipe's loader and PIL decode them.

Goldens (`classifier_efficientnet.json`): MediaPipe Tasks `ImageClassifier` 0.10.14, IMAGE mode, with
`Models/efficientnet_lite0.tflite`:
- default options on every image (Python 0.10.14 leaves score_threshold unset: all 1000 categories come back);
  the top 20 categories are stored, and the full score vector (by index) for two images;
- option runs on three images: max_results 3 and 5, score_threshold 0.1, an allowlist (names incl. an unknown one),
  a denylist of the image's top three, an allowlist of unknown names only (MediaPipe then applies no filter), two
  regions of interest, rotation_degrees 90 and -90, and a region of interest with a rotation;
- `errors`: what MediaPipe raises for max_results 0 and for an allowlist together with a denylist.

Tiny models (`classifier_tiny.json` and the `.tflite` files next to it), built with tools/tflite_builder.py:
- `tiny_nometa.tflite`: float [1,16,16,3] -> MEAN over H, W -> FULLY_CONNECTED 5 -> SOFTMAX, no metadata. MediaPipe
  refuses a float model without NormalizationOptions, so the expected scores are LiteRT's on the 16x16 image as
  v/255 (our API's choice for such models).
- `tiny_meta.tflite`: the same graph with 6 classes, other weights and MediaPipe image-classifier metadata (mean 0,
  std 255; labels; French display names; LOG score calibration). The writer ends the calibration file with a
  newline and MediaPipe splits it on every newline, so 5 parameter lines make 6 sigmoids, the last one empty
  (default score); the third line is empty too. MediaPipe results with locale "en" (no display names) and "fr".
- `tiny_uint8.tflite`: uint8 [1,2,2,3] -> RESHAPE -> uint8 [1,12] (scale 0.01, zero point 10), no metadata:
  MediaPipe feeds the raw 0..255 pixels and dequantizes the output.

Run from the repository root: `python3 tools/make_classifier_goldens.py`.
"""

import hashlib
import json
import os
import sys

import numpy as np
import PIL
from PIL import Image

import mediapipe as mp
from mediapipe.tasks.python import vision
from mediapipe.tasks.python.core.base_options import BaseOptions
from mediapipe.tasks.python.components.containers.rect import Rect as RectF
from mediapipe.tasks.python.vision.core.image_processing_options import ImageProcessingOptions
from mediapipe.tasks.python.metadata.metadata_writers import image_classifier as ic_writer
from mediapipe.tasks.python.metadata.metadata_writers import metadata_writer
from mediapipe.tasks.metadata import metadata_schema_py_generated as mschema

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pvtools  # noqa: E402
import tflite_builder as tb  # noqa: E402

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(REPO_ROOT, "Tests", "PureVisionTests", "Fixtures", "classifier")
MODEL = os.path.join("Models", "efficientnet_lite0.tflite")
# The committed copies of the source photos (faces/, hands/, objects/ as in the test-data folder they came from);
# PUREVISION_TESTDATA may point at another folder of the same layout.
PHOTO_DIR = os.environ.get(
    "PUREVISION_TESTDATA", os.path.join(REPO_ROOT, "Tests", "PureVisionImageTests", "Fixtures", "photos"))
MAX_SIDE = 300
TOP = 20
COMMAND = "python3 tools/make_classifier_goldens.py"

OBJECTS = [
    ("gcompris_polar_bear.jpg", "Debian gcompris-qt-data 3.1 (from Wikimedia), public domain"),
    ("opencvdoc_orange.jpg", "Debian opencv-doc 4.6.0, Apache-2.0 AND BSD-3-Clause"),
    ("opencvdoc_space_shuttle.jpg", "Debian opencv-doc 4.6.0, Apache-2.0 AND BSD-3-Clause"),
    ("skimage_chelsea.png", "Debian python3-skimage 0.19.3, CC0 (Stefan van der Walt)"),
    ("skimage_coffee.png", "Debian python3-skimage 0.19.3, CC0 (Rachel Michetti)"),
]
# (skimage.data function, licence as its docstring states it)
SKIMAGE = [
    ("astronaut", "public domain (NASA)"),
    ("rocket", "public domain (SpaceX)"),
    ("camera", "CC0 (Lav Varshney)"),
    ("hubble_deep_field", "public domain (NASA)"),
    ("horse", "CC0 (Andreas Preuss)"),
    ("clock", "public domain (Stefan van der Walt)"),
    ("retina", "CC0 1.0"),
    ("grass", "CC0 (CC0Textures)"),
    ("brick", "CC0 (CC0Textures)"),
]
OPTION_IMAGES = ["skimage_chelsea.png", "opencvdoc_space_shuttle.png", "skimage_astronaut.png"]
FULL_SCORE_IMAGES = ["skimage_chelsea.png", "skimage_coffee.png"]
ROIS = [(0.1, 0.2, 0.6, 0.9), (0.4, 0.0, 1.0, 0.5)]


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def reduce(img):
    w, h = img.size
    scale = MAX_SIDE / max(w, h)
    if scale >= 1:
        return img
    return img.resize((max(1, round(w * scale)), max(1, round(h * scale))), Image.Resampling.BILINEAR)


def make_images():
    import skimage
    import skimage.data
    images = []
    for file, source in OBJECTS:
        img = Image.open(os.path.join(PHOTO_DIR, "objects", file)).convert("RGB")
        name = os.path.splitext(file)[0] + ".png"
        images.append((name, img, f"testdata/objects/{file}: {source}"))
    for function, licence in SKIMAGE:
        array = getattr(skimage.data, function)()
        if array.dtype == bool:
            array = array.astype(np.uint8) * 255
        img = Image.fromarray(array).convert("RGB")
        images.append((f"skimage_{function}.png", img,
                       f"PyPI scikit-image {skimage.__version__}, skimage.data.{function}(): {licence}"))
    entries = []
    for name, img, source in images:
        reduced = reduce(img)
        path = os.path.join(OUT_DIR, name)
        reduced.save(path, format="PNG", optimize=True)
        with open(path, "rb") as f:
            file_digest = sha256(f.read())
        mp_rgb = np.ascontiguousarray(np.asarray(mp.Image.create_from_file(path).numpy_view()))
        pil_rgb = np.ascontiguousarray(np.asarray(Image.open(path).convert("RGB")))
        entries.append({
            "file": name, "source": source,
            "derivation": f"PIL decode, RGB, bilinear resize of {img.size[0]}x{img.size[1]} to longer side "
                          f"<= {MAX_SIDE}, PNG",
            "width": int(pil_rgb.shape[1]), "height": int(pil_rgb.shape[0]), "file_sha256": file_digest,
            "mediapipe_rgb_sha256": sha256(mp_rgb.tobytes()), "pil_rgb_sha256": sha256(pil_rgb.tobytes()),
            "decoders_agree": mp_rgb.shape == pil_rgb.shape and bool(np.array_equal(mp_rgb, pil_rgb)),
        })
    return entries


def classifier(model_path, **options):
    return vision.ImageClassifier.create_from_options(vision.ImageClassifierOptions(
        base_options=BaseOptions(model_asset_path=model_path), running_mode=vision.RunningMode.IMAGE, **options))


def encode(result, limit=None):
    heads = []
    for c in result.classifications:
        cats = c.categories if limit is None else c.categories[:limit]
        heads.append({
            "head_index": c.head_index, "head_name": c.head_name, "category_count": len(c.categories),
            "categories": [{"index": k.index, "score": float(k.score), "category_name": k.category_name,
                            "display_name": k.display_name} for k in cats],
        })
    return heads


def load(path, decoder):
    if decoder == "pil":
        rgb = np.ascontiguousarray(np.asarray(Image.open(path).convert("RGB")))
        return mp.Image(image_format=mp.ImageFormat.SRGB, data=rgb)
    return mp.Image.create_from_file(path)


def processing(roi, rotation):
    if roi is None and rotation == 0:
        return None
    rect = None if roi is None else RectF(left=roi[0], top=roi[1], right=roi[2], bottom=roi[3])
    return ImageProcessingOptions(region_of_interest=rect, rotation_degrees=rotation)


def efficientnet_runs(images):
    model = os.path.join(REPO_ROOT, MODEL)
    default = classifier(model)
    runs = []
    top3 = {}
    for entry in images:
        for decoder in ["mediapipe"] + ([] if entry["decoders_agree"] else ["pil"]):
            result = default.classify(load(os.path.join(OUT_DIR, entry["file"]), decoder))
            run = {"image": entry["file"], "decoder": decoder, "options": {},
                   "classifications": encode(result, TOP)}
            if entry["file"] in FULL_SCORE_IMAGES:
                scores = [0.0] * 1000
                for k in result.classifications[0].categories:
                    scores[k.index] = float(k.score)
                run["full_scores"] = scores
            runs.append(run)
            top3[entry["file"]] = [k.category_name for k in result.classifications[0].categories[:3]]
    for name in OPTION_IMAGES:
        plan = [
            ({"max_results": 3}, None, 0), ({"max_results": 5}, None, 0), ({"score_threshold": 0.1}, None, 0),
            ({"category_allowlist": [top3[name][1], "tabby", "space shuttle", "espresso", "no such label"]},
             None, 0),
            ({"category_denylist": top3[name]}, None, 0),
            ({"category_denylist": top3[name], "max_results": 5}, None, 0),
            ({"category_allowlist": ["no such label", "Tabby"]}, None, 0),
            ({"max_results": 3, "score_threshold": 0.05}, None, 0),
        ]
        plan += [({}, roi, 0) for roi in ROIS]
        plan += [({}, None, 90), ({}, None, -90), ({}, ROIS[0], 90)]
        for options, roi, rotation in plan:
            task = classifier(model, **options)
            result = task.classify(load(os.path.join(OUT_DIR, name), "mediapipe"), processing(roi, rotation))
            task.close()
            recorded = dict(options)
            if roi is not None:
                recorded["region_of_interest"] = list(roi)
            if rotation:
                recorded["rotation_degrees"] = rotation
            runs.append({"image": name, "decoder": "mediapipe", "options": recorded,
                         "classifications": encode(result, TOP)})
    default.close()
    return runs


def error_facts():
    model = os.path.join(REPO_ROOT, MODEL)
    facts = []
    for options in ({"max_results": 0}, {"category_allowlist": ["tabby"], "category_denylist": ["tench"]}):
        try:
            classifier(model, **options).close()
            facts.append({"options": options, "error": None})
        except Exception as error:  # MediaPipe raises RuntimeError / ValueError with the status message.
            facts.append({"options": options, "error_type": type(error).__name__, "error": str(error)})
    return facts


def tiny_graph(seed, classes=5):
    rng = np.random.default_rng(seed)
    b = tb.ModelBuilder(f"PureVision tiny classifier seed {seed}")
    x = b.input([1, 16, 16, 3], name="image")
    pooled = tb.add_mean(b, x, [1, 2], keep_dims=False)
    weights = (rng.standard_normal((classes, 3)) * 4).astype(np.float32)
    bias = (rng.standard_normal(classes) * 0.5).astype(np.float32)
    options = tb.schema.FullyConnectedOptionsT()
    logits = b.op(tb.BO.FULLY_CONNECTED, [pooled, b.const(weights), b.const(bias)], [1, classes],
                  tb.OPT.FullyConnectedOptions, options)
    probs = tb.add_softmax(b, logits)
    b.tensors[probs].name = "probs"
    return b.finish([probs])


def tiny_uint8():
    b = tb.ModelBuilder("PureVision tiny uint8 classifier")
    q = tb.schema.QuantizationParametersT()
    q.scale = [0.01]
    q.zeroPoint = [10]
    x = b._tensor([1, 2, 2, 3], np.uint8, 0, "image", quantization=q)
    b.inputs.append(x)
    y = b.op(tb.BO.RESHAPE, [x, b.const_i32([1, 12])], [1, 12], out_dtype=np.uint8)
    b.tensors[y].quantization = q
    b.tensors[y].name = "scores"
    return b.finish([y])


TINY_LABELS = ["red", "green", "blue", "bright", "dark", "other"]
TINY_FRENCH = ["rouge", "vert", "bleu", "clair", "sombre", "autre"]


def tiny_meta_model():
    writer = ic_writer.MetadataWriter.create(
        bytearray(tiny_graph(7, classes=6)), input_norm_mean=[0.0], input_norm_std=[255.0],
        labels=metadata_writer.Labels().add(TINY_LABELS).add(TINY_FRENCH, "fr"),
        score_calibration=metadata_writer.ScoreCalibration(
            mschema.ScoreTransformationType.LOG,
            [metadata_writer.CalibrationParameter(1.0, 2.0, 0.5),
             metadata_writer.CalibrationParameter(0.9, 1.5, -0.2, 0.3),
             None,
             metadata_writer.CalibrationParameter(1.0, 0.5, 1.0),
             metadata_writer.CalibrationParameter(0.8, 3.0, 0.0, 0.05)],
            default_score=0.25))
    model, _ = writer.populate()
    return bytes(model)


def tiny_image():
    """16x16 RGB: four quadrants of different colours, so the mean differs from any single pixel."""
    rgb = np.zeros((16, 16, 3), np.uint8)
    rgb[:8, :8] = (200, 30, 40)
    rgb[:8, 8:] = (20, 180, 60)
    rgb[8:, :8] = (90, 90, 230)
    rgb[8:, 8:] = (250, 240, 10)
    return rgb


def tiny_runs():
    files = {"tiny_nometa.tflite": tiny_graph(3), "tiny_meta.tflite": tiny_meta_model(),
             "tiny_uint8.tflite": tiny_uint8()}
    for name, data in files.items():
        with open(os.path.join(OUT_DIR, name), "wb") as f:
            f.write(data)
    rgb = tiny_image()
    Image.fromarray(rgb).save(os.path.join(OUT_DIR, "tiny_quadrants.png"), format="PNG")
    image = mp.Image(image_format=mp.ImageFormat.SRGB, data=rgb)
    out = {"image": "tiny_quadrants.png", "runs": []}

    interp = pvtools.reference_interpreter(model_content=files["tiny_nometa.tflite"])
    interp.allocate_tensors()
    interp.set_tensor(interp.get_input_details()[0]["index"], (rgb.astype(np.float32) / 255)[None])
    interp.invoke()
    out["nometa_litert_scores"] = [float(v) for v in interp.get_tensor(interp.get_output_details()[0]["index"])[0]]
    try:
        classifier(os.path.join(OUT_DIR, "tiny_nometa.tflite")).close()
        out["nometa_mediapipe_error"] = None
    except Exception as error:
        out["nometa_mediapipe_error"] = str(error)

    for model, options in (("tiny_meta.tflite", {}), ("tiny_meta.tflite", {"display_names_locale": "fr"}),
                           ("tiny_meta.tflite", {"display_names_locale": "fr", "max_results": 2}),
                           ("tiny_meta.tflite", {"category_allowlist": ["blue", "dark", "bleu"]}),
                           ("tiny_uint8.tflite", {})):
        task = classifier(os.path.join(OUT_DIR, model), **options)
        result = task.classify(image)
        task.close()
        out["runs"].append({"model": model, "options": options, "classifications": encode(result)})
    try:
        classifier(os.path.join(OUT_DIR, "tiny_uint8.tflite"), category_allowlist=["a"]).close()
        out["uint8_allowlist_error"] = None
    except Exception as error:
        out["uint8_allowlist_error"] = str(error)
    out["model_sha256"] = {name: sha256(data) for name, data in files.items()}
    return out


def versions():
    import skimage
    return {"mediapipe": mp.__version__, "numpy": np.__version__, "pillow": PIL.__version__,
            "scikit-image": skimage.__version__, "python": sys.version.split()[0]}


def write_json(name, payload):
    with open(os.path.join(OUT_DIR, name), "w") as f:
        json.dump(payload, f, indent=1)
        f.write("\n")


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    header = {"command": COMMAND, "versions": versions()}
    images = make_images()
    write_json("images.json", {**header, "note": "RGB digests are over the decoded H x W x 3 uint8 bytes; "
                               "mediapipe = mp.Image.create_from_file, pil = PIL.Image.open(path).convert('RGB')",
                               "images": images})
    with open(os.path.join(REPO_ROOT, MODEL), "rb") as f:
        model_digest = sha256(f.read())
    runs = efficientnet_runs(images)
    write_json("classifier_efficientnet.json", {
        **header,
        "api": "mediapipe.tasks.python.vision.ImageClassifier, RunningMode.IMAGE, mp.Image.create_from_file",
        "model": MODEL, "model_sha256": model_digest,
        "conventions": f"classifications per head; categories sorted by score, at most the top {TOP} stored "
                       "(category_count is how many MediaPipe returned); full_scores = every score by index; "
                       "options are ImageClassifierOptions fields, region_of_interest is [left, top, right, bottom]"
                       " and rotation_degrees the ImageProcessingOptions ones",
        "errors": error_facts(),
        "results": runs,
    })
    write_json("classifier_tiny.json", {**header, **tiny_runs()})
    for run in runs:
        head = run["classifications"][0]
        print(f"{run['image']:34s} {json.dumps(run['options'])[:60]:60s} {head['category_count']:4d} "
              + ", ".join(f"{c['category_name']} {c['score']:.3f}" for c in head["categories"][:3]))


if __name__ == "__main__":
    main()
