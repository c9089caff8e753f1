#!/usr/bin/env python3
"""Goldens of the 8-bit models in XNNPACK's arithmetic (the one MediaPipe runs), for
`InterpreterOptions.quantizedArithmetic = .xnnpack`: LiteRT with its default XNNPACK delegate, 1 thread.

Writes `Tests/PureVisionEngineTests/Fixtures/models/xnnpack_int8/goldens.json`: per model and SplitMix64 seed
(tools/pvtools.py), the input mapped onto the model's 8-bit input type as floor((f + 1) · 128), minus 128 for int8,
and per output its shape, type and the SHA-256 of its little-endian bytes (the float outputs of efficientdet_lite0
are 6.9 MB, so the digest stands in for them), plus its first 16 values for a readable failure.

Run from the repository root:  python3 tools/make_xnnpack_int8_goldens.py
"""

import hashlib
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pvtools  # noqa: E402

OUT = os.path.join(pvtools.REPO_ROOT, "Tests", "PureVisionEngineTests", "Fixtures", "models", "xnnpack_int8",
                   "goldens.json")
# efficientnet_lite0_int8 is left out: its int8 MEAN keeps LiteRT's arithmetic in the engine (XNNPACK's 8-bit MEAN
# is not reproduced).
MODELS = {"efficientdet_lite0": [1, 2, 3], "efficientnet_lite0_uint8": [1, 2]}


def seeded_input(seed, detail):
    f = pvtools.splitmix64_floats(seed, int(np.prod(detail["shape"])))
    q = np.floor((f.astype(np.float64) + 1) * 128).astype(np.int64)
    if detail["dtype"] == np.int8:
        q -= 128
    return q.astype(detail["dtype"]).reshape(detail["shape"])


def main():
    runs = []
    for stem, seeds in MODELS.items():
        path = os.path.join(pvtools.MODELS_DIR, stem + ".tflite")
        for seed in seeds:
            interp = pvtools.xnnpack_interpreter(model_path=path, num_threads=1)
            interp.allocate_tensors()
            x = seeded_input(seed, interp.get_input_details()[0])
            outputs = []
            for out in pvtools.run(interp, [x]):
                data = np.ascontiguousarray(out).astype(out.dtype.newbyteorder("<")).tobytes()
                outputs.append({"shape": list(out.shape), "dtype": str(out.dtype),
                                "sha256": hashlib.sha256(data).hexdigest(),
                                "first": [float(v) for v in out.ravel()[:16]]})
            runs.append({"model": stem + ".tflite", "seed": seed, "outputs": outputs})
    payload = {"command": "python3 tools/make_xnnpack_int8_goldens.py",
               "versions": {"ai-edge-litert": pvtools.LITERT_VERSION, "numpy": np.__version__},
               "reference": "LiteRT default resolver (XNNPACK delegate), 1 thread", "runs": runs}
    with open(OUT, "w") as f:
        json.dump(payload, f, indent=1)
        f.write("\n")
    print(f"{len(runs)} runs")


if __name__ == "__main__":
    main()
