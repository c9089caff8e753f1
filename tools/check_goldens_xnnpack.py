#!/usr/bin/env python3
"""Re-reads the whole-model goldens and checks that LiteRT's default interpreter (XNNPACK) agrees with them.

This says how far two LiteRT paths, both correct, already differ, which is the scale the engine's tolerance
|ours - ref| <= 1e-4 + 1e-3 * |ref| has to absorb. Prints the largest absolute error per model and exits non-zero
when any element is outside the tolerance.

Run from the repository root:  python3 tools/check_goldens_xnnpack.py
"""

import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pvtools  # noqa: E402

GOLDENS = os.path.join(pvtools.REPO_ROOT, "Tests", "PureVisionEngineTests", "Fixtures", "models")


def main():
    with open(os.path.join(GOLDENS, "manifest.json")) as f:
        manifest = json.load(f)
    failures = 0
    for stem, entry in manifest["models"].items():
        model_dir = os.path.join(GOLDENS, entry["directory"])
        interp = pvtools.xnnpack_interpreter(model_path=os.path.join(pvtools.MODELS_DIR, entry["file"]))
        shapes = [tuple(i["shape"]) for i in entry["inputs"]]
        runs = [(pvtools.splitmix64_inputs(seed, shapes), files)
                for seed, files in zip(entry["seeds"], entry["seed_output_files"])]
        photo = entry["photo"]
        pixels = np.load(os.path.join(model_dir, photo["input_file"]))
        x = pixels.astype(np.float32) * np.float32(photo["scale"]) + np.float32(photo["offset"])
        runs.append(([x], photo["output_files"]))
        worst, ok = 0.0, True
        for inputs, files in runs:
            for out, name in zip(pvtools.run(interp, inputs), files):
                good, err = pvtools.within_tolerance(out, np.load(os.path.join(model_dir, name)))
                ok &= good
                worst = max(worst, err)
        failures += not ok
        print(f"{stem:34s} max |xnnpack - reference| = {worst:.3e}  {'PASS' if ok else 'FAIL'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
