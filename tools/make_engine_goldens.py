#!/usr/bin/env python3
"""Writes the whole-model golden fixtures under Tests/PureVisionEngineTests/Fixtures/models/.

For each model: LiteRT's builtin reference kernels (no XNNPACK) run on three SplitMix64 inputs (seeds 1, 2, 3; the
Swift tests regenerate these, so they are not committed) and on one real photo (its resized uint8 pixels are
committed as photo_input_u8.npy). Outputs are float32 .npy files in the subgraph's output order. A manifest.json
records names, shapes, seeds, photo provenance and the float32 normalization constants.

Beside each builtin-kernel output, `<run>_xnnpack_output<i>.npy` holds LiteRT's default interpreter (the XNNPACK
delegate, one thread) on the same input: a second correct implementation. The Swift tests allow an element beyond
1e-4 + 1e-3·|reference| only where XNNPACK's own output is at least as far from the reference.

Run from the repository root:  python3 tools/make_engine_goldens.py
"""

import argparse
import json
import os
import shutil
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pvtools  # noqa: E402
from ai_edge_litert import schema_py_generated as schema  # noqa: E402

# The committed copies of the source photos; PUREVISION_TESTDATA may point at another folder of the same layout.
TESTDATA = os.environ.get(
    "PUREVISION_TESTDATA", os.path.join(pvtools.REPO_ROOT, "Tests", "PureVisionImageTests", "Fixtures", "photos"))
OUT_DIR = os.path.join(pvtools.REPO_ROOT, "Tests", "PureVisionEngineTests", "Fixtures", "models")
SEEDS = [1, 2, 3]
COMMAND = "python3 tools/make_engine_goldens.py"

_OPENCV = "Debian opencv-doc 4.6.0, Apache-2.0 AND BSD-3-Clause"
PHOTOS = {
    "hand_open_palm": ("hands/opencvdoc_Back_Projection_Theory0.jpg", _OPENCV),
    "hand_on_table": ("hands/opencvdoc_handSrc.jpg", _OPENCV),
    "face_grace_hopper": ("faces/matplotlib_grace_hopper.jpg",
                          "Debian python-matplotlib-data 3.6.3 (mpl-data/sample_data), public domain"),
    "cat_chelsea": ("objects/skimage_chelsea.png", "Debian python3-skimage 0.19.3 (skimage/data), CC0"),
}

# (model stem, photo key, scale, offset): x = float32(u8) * float32(scale) + float32(offset).
MODELS = [
    ("palm_detection_full", "hand_on_table", 1.0 / 255.0, 0.0),
    ("hand_landmark_full", "hand_open_palm", 1.0 / 255.0, 0.0),
    ("face_detection_short_range", "face_grace_hopper", 1.0 / 127.5, -1.0),
    ("face_detection_full_range_sparse", "face_grace_hopper", 1.0 / 127.5, -1.0),
    ("face_landmark", "face_grace_hopper", 1.0 / 127.5, -1.0),
    ("efficientnet_lite0", "cat_chelsea", 1.0 / 128.0, -127.0 / 128.0),
]


def subgraph_output_indices(model_path):
    with open(model_path, "rb") as f:
        model = schema.Model.GetRootAs(f.read(), 0)
    sub = model.Subgraphs(0)
    return [int(sub.Outputs(i)) for i in range(sub.OutputsLength())]


def load_photo(relative_path, height, width):
    image = Image.open(os.path.join(TESTDATA, relative_path)).convert("RGB")
    image = image.resize((width, height), Image.BILINEAR)
    return np.asarray(image, dtype=np.uint8)[np.newaxis, ...]


def make_model_goldens(stem, photo_key, scale, offset):
    model_file = stem + ".tflite"
    model_path = os.path.join(pvtools.MODELS_DIR, model_file)
    out_dir = os.path.join(OUT_DIR, stem)
    if os.path.isdir(out_dir):
        shutil.rmtree(out_dir)
    os.makedirs(out_dir)

    interp = pvtools.reference_interpreter(model_path=model_path)
    interp.allocate_tensors()
    xnnpack = pvtools.xnnpack_interpreter(model_path=model_path, num_threads=1)
    inputs = interp.get_input_details()
    outputs = interp.get_output_details()
    output_indices = [int(d["index"]) for d in outputs]
    if output_indices != subgraph_output_indices(model_path):
        raise RuntimeError(f"{stem}: interpreter output order {output_indices} is not the subgraph's")
    input_shapes = [tuple(int(x) for x in d["shape"]) for d in inputs]

    for seed in SEEDS:
        values = pvtools.splitmix64_inputs(seed, input_shapes)
        for i, out in enumerate(pvtools.run(interp, values)):
            pvtools.save_npy(os.path.join(out_dir, f"seed{seed}_output{i}.npy"), out.astype(np.float32))
        for i, out in enumerate(pvtools.run(xnnpack, values)):
            pvtools.save_npy(os.path.join(out_dir, f"seed{seed}_xnnpack_output{i}.npy"), out.astype(np.float32))

    if len(inputs) != 1:
        raise RuntimeError(f"{stem}: the photo golden expects one image input")
    _, height, width, channels = input_shapes[0]
    photo_path, photo_licence = PHOTOS[photo_key]
    pixels = load_photo(photo_path, height, width)
    pvtools.save_npy(os.path.join(out_dir, "photo_input_u8.npy"), pixels)
    scale32, offset32 = np.float32(scale), np.float32(offset)
    x = pixels.astype(np.float32) * scale32 + offset32
    assert x.dtype == np.float32
    photo_outputs = pvtools.run(interp, [x])
    for i, out in enumerate(photo_outputs):
        pvtools.save_npy(os.path.join(out_dir, f"photo_output{i}.npy"), out.astype(np.float32))
    for i, out in enumerate(pvtools.run(xnnpack, [x])):
        pvtools.save_npy(os.path.join(out_dir, f"photo_xnnpack_output{i}.npy"), out.astype(np.float32))

    return {
        "file": model_file,
        "directory": stem,
        "inputs": [{"name": d["name"], "shape": list(s), "dtype": np.dtype(d["dtype"]).name}
                   for d, s in zip(inputs, input_shapes)],
        "outputs": [{"name": d["name"], "shape": [int(x) for x in d["shape"]],
                     "dtype": np.dtype(d["dtype"]).name, "file_suffix": f"output{i}.npy"}
                    for i, d in enumerate(outputs)],
        "seeds": SEEDS,
        "seed_output_files": [[f"seed{s}_output{i}.npy" for i in range(len(outputs))] for s in SEEDS],
        "seed_xnnpack_output_files": [[f"seed{s}_xnnpack_output{i}.npy" for i in range(len(outputs))]
                                      for s in SEEDS],
        "photo": {
            "input_file": "photo_input_u8.npy",
            "output_files": [f"photo_output{i}.npy" for i in range(len(outputs))],
            "xnnpack_output_files": [f"photo_xnnpack_output{i}.npy" for i in range(len(outputs))],
            "source": os.path.join("testdata", photo_path),
            "licence": photo_licence,
            "resize": f"PIL {Image.__version__} Image.resize to {width}x{height}, BILINEAR, RGB",
            "scale": float(scale32),
            "offset": float(offset32),
            "formula": "x = float32(u8) * float32(scale) + float32(offset)",
        },
        "litert": f"ai-edge-litert {pvtools.LITERT_VERSION}",
        "command": COMMAND,
        "_top": int(np.argmax(photo_outputs[0])) if stem == "efficientnet_lite0" else None,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", nargs="*", help="model stems to regenerate (default: all)")
    args = parser.parse_args()

    os.makedirs(OUT_DIR, exist_ok=True)
    manifest_path = os.path.join(OUT_DIR, "manifest.json")
    manifest = {"models": {}}
    if os.path.exists(manifest_path):
        with open(manifest_path) as f:
            manifest = json.load(f)
    manifest.update({
        "generator": COMMAND,
        "litert": f"ai-edge-litert {pvtools.LITERT_VERSION}",
        "reference_kernels": "Interpreter(experimental_op_resolver_type=BUILTIN_WITHOUT_DEFAULT_DELEGATES)",
        "xnnpack": "Interpreter(num_threads=1), default resolver (XNNPACK delegate): *_xnnpack_output*.npy",
        "input_stream": {
            "algorithm": "SplitMix64",
            "definition": "state = seed; per value: state += 0x9E3779B97F4A7C15; z = state; "
                          "z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9; z = (z ^ (z >> 27)) * 0x94D049BB133111EB; "
                          "z ^= z >> 31; k = z >> 40; value = float32((k - 2^23) / 2^23); all mod 2^64",
            "layout": "one stream per seed, filling the inputs in input order, each row-major",
            "first_values": {str(s): [float(v) for v in pvtools.splitmix64_floats(s, 4)] for s in SEEDS},
        },
    })
    for stem, photo_key, scale, offset in MODELS:
        if args.only and stem not in args.only:
            continue
        entry = make_model_goldens(stem, photo_key, scale, offset)
        top = entry.pop("_top")
        manifest["models"][stem] = entry
        note = f", photo top-1 class {top}" if top is not None else ""
        print(f"{stem}: {len(entry['outputs'])} outputs{note}")
    with open(manifest_path, "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
