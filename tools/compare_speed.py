#!/usr/bin/env python3
"""Times PureVision's bench and LiteRT on the same models and the same inputs, and prints them side by side.

Our side: `BENCH --json [--filter NAME] --runs R`, one JSON object per line such as
{"name":"palm_detection_full","kind":"model","threads":1,"runs":50,"min_ms":9.1,"median_ms":9.4,"p90_ms":9.8};
missing fields and non-JSON lines are tolerated. LiteRT's side, in the same run: the default interpreter (XNNPACK)
with each thread count, and the builtin reference kernels (BUILTIN_WITHOUT_DEFAULT_DELEGATES) with one thread,
each timed over R invocations after 5 warm-up runs and at least 0.3 s (as the bench), on the SplitMix64 seed-1
inputs (int8 inputs are that stream quantized with the input tensor's scale and zero point). Ratios are ours / LiteRT
(below 1: we are faster).

With --interleave, each (model, thread count) runs our bench and then LiteRT XNNPACK back to back, so that on a
machine whose load drifts both sides of a ratio see the same load; the load average is printed before and after.
With --rounds K as well, that pair alternates K times (our bench restarted with `--times`, its own warm-up each time;
one LiteRT interpreter), R/K runs each, and each side's median is over all its runs pooled: load that drifts within
a few seconds then falls on both sides alike too.

With --xnnpack-isa avx2, LiteRT's XNNPACK is held to AVX2 + FMA for the whole run (tools/xnnpack_isa.py clears its
hardware config's flags above AVX2 before the first interpreter): on a CPU with AVX-512 that compares the portable
kernels (--portable-haswell) with XNNPACK on the same instruction set, as on a CPU without AVX-512.

With --peak, the bench also measures the machine's arithmetic peak per thread count (`bench --peak`: float32 FMA and
int16 multiply-add loops in registers, and 512-bit FMA and VNNI byte-dot loops where the CPU has AVX-512) before and
after the models (the higher of the two counts), and a second table gives each model's operations (2 × the
multiply-adds of its CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and TRANSPOSE_CONV, from the model's shapes) per
second at the median latency, ours and XNNPACK's, as a share of that peak: the widest float peak for float models,
the VNNI (else int16) one for models whose convolution weights are 8-bit. With --json
as well, the rows (with "gop", "peak_gops" and the two shares) are printed once the second peak is measured.

Run from the repository root:
    python3 tools/compare_speed.py [--bench .build/release/bench] [--runs 50] [--threads 1 2] [--interleave [--rounds K]]
                                   [--peak] [--json] [--no-codegen | --portable-haswell]
                                   [--quantized-arithmetic xnnpack|litert] [--xnnpack-isa native|avx2]
    python3 tools/compare_speed.py --portable-haswell --interleave --rounds 3   # what arm64 and Apple devices run
    python3 tools/compare_speed.py --portable-haswell --xnnpack-isa avx2 --interleave --rounds 3   # same ISA
    python3 tools/compare_speed.py --no-bench --models palm_detection_full   # LiteRT only
"""

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pvtools  # noqa: E402
import xnnpack_isa  # noqa: E402

DEFAULT_MODELS = ["palm_detection_full", "hand_landmark_full", "face_detection_short_range",
                  "face_detection_full_range_sparse", "face_landmark", "efficientnet_lite0"]
OPTIONAL_MODELS = ["efficientnet_lite0_int8", "efficientnet_lite0_uint8", "efficientdet_lite0", "palm_detection_full_int8",
                   "hand_landmark_full_int8", "deeplab_v3"]  # timed when the bench reports it or --models names it
# (selfie_segmenter, also in the bench, needs MediaPipe's Convolution2DTransposeBias, which LiteRT does not have)
WARMUP = 5
BENCH_FLAGS = []  # extra bench arguments (--no-codegen, --quantized-arithmetic litert), set by main
KERNEL_FAMILIES = {}  # model name -> {"generated": n, "swiftSIMD": n, "blas": n}, as the bench reports them
BENCH_ENVIRONMENT = {}  # the bench's environment record (codegen, swift_kernels, ...)
WARMUP_SECONDS = 0.3  # as the bench: at least WARMUP runs and at least this long before timing


def run_bench(bench, runs, names, threads=None, times=False):
    """Our results keyed by (name, threads); empty when the bench is missing or fails. With `times`, each record also
    has "times_ms", the latency of every timed run."""
    results = {}
    command = [bench, "--json", "--runs", str(runs)] + (["--times"] if times else []) + BENCH_FLAGS
    if len(names) == 1:
        command += ["--filter", names[0]]
    if threads is not None:
        command += ["--threads", str(threads)]
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=3600)
    except (OSError, subprocess.TimeoutExpired) as error:
        print(f"bench not run: {error}", file=sys.stderr)
        return results
    if proc.returncode != 0:
        print(f"bench exited {proc.returncode}: {proc.stderr.strip()[-300:]}", file=sys.stderr)
    for line in proc.stdout.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict) and record.get("kind") == "environment":
            BENCH_ENVIRONMENT.update(record)
            continue
        if isinstance(record, dict) and record.get("kind") == "kernel_families" and "name" in record:
            KERNEL_FAMILIES[record["name"]] = {k: v for k, v in record.items() if k not in ("name", "kind")}
            continue
        if not isinstance(record, dict) or "name" not in record or record.get("kind", "model") != "model":
            continue
        results[(record["name"], int(record.get("threads", 1)))] = record
    return results


def run_peak(bench, threads):
    """The bench's `--peak` figures keyed by (loop name, threads), in GOP/s; empty when it cannot measure them."""
    command = [bench, "--peak", "--json", "--threads", ",".join(str(t) for t in threads)]
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as error:
        print(f"peak not measured: {error}", file=sys.stderr)
        return {}
    peaks = {}
    for line in proc.stdout.splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict) and record.get("kind") == "peak":
            peaks[(record["name"], int(record["threads"]))] = float(record["gops"])
    return peaks


def model_operations(model_path):
    """(GOP per invocation, whether the convolution weights are 8-bit): 2 × the multiply-adds of the model's
    CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and TRANSPOSE_CONV operators, from the tensors' shapes."""
    interp = pvtools.reference_interpreter(model_path=model_path, num_threads=1)
    interp.allocate_tensors()
    details = {d["index"]: d for d in interp.get_tensor_details()}
    shape = lambda index: tuple(int(x) for x in details[index]["shape"])  # noqa: E731
    multiply_adds, quantized = 0, False
    for op in interp._get_ops_details():
        name, inputs, outputs = op["op_name"], op["inputs"], op["outputs"]
        if name not in ("CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "TRANSPOSE_CONV"):
            continue
        weights = shape(inputs[1])
        quantized = quantized or np.dtype(details[inputs[1]]["dtype"]).itemsize == 1
        if name == "CONV_2D":  # weights [O, KH, KW, I]
            multiply_adds += int(np.prod(shape(outputs[0]))) * weights[1] * weights[2] * weights[3]
        elif name == "DEPTHWISE_CONV_2D":  # weights [1, KH, KW, C·M]
            multiply_adds += int(np.prod(shape(outputs[0]))) * weights[1] * weights[2]
        elif name == "FULLY_CONNECTED":  # weights [O, I]
            multiply_adds += int(np.prod(shape(outputs[0]))) * weights[-1]
        else:  # TRANSPOSE_CONV: weights [O, KH, KW, I], each input value reaches KH·KW·O outputs
            multiply_adds += int(np.prod(shape(inputs[2]))) * weights[0] * weights[1] * weights[2]
    return 2 * multiply_adds / 1e9, quantized


def add_peak_shares(rows, peaks, widest=True):
    """Gives each row its peak ("peak_gops") and ours and XNNPACK's GOP/s at the median latency as a share of it: the
    widest loop the bench measured, AVX-512 (VNNI for 8-bit models) where the CPU has it, else (or when not `widest`)
    AVX2."""
    names = {name for name, _ in peaks} if widest else set()
    for row in rows:
        if row.get("quantized"):
            row["peak_name"] = "int8_dot_vnni" if "int8_dot_vnni" in names else "int16_multiply_add"
        else:
            row["peak_name"] = "float32_fma_avx512" if "float32_fma_avx512" in names else "float32_fma"
        peak = peaks.get((row["peak_name"], row["threads"]))
        row["peak_gops"] = peak
        for side, ms in (("ours", row["ours_median_ms"]), ("xnnpack", row["litert_xnnpack_median_ms"])):
            row[side + "_share_of_peak"] = None if ms is None or not peak else row["gop"] / (ms / 1e3) / peak


def model_inputs(interp):
    details = interp.get_input_details()
    floats = pvtools.splitmix64_inputs(1, [tuple(int(x) for x in d["shape"]) for d in details])
    inputs = []
    for detail, values in zip(details, floats):
        dtype = np.dtype(detail["dtype"])
        if dtype.kind in "iu":
            scale, zero_point = detail["quantization"]
            info = np.iinfo(dtype)
            values = np.clip(np.round(values / scale) + zero_point, info.min, info.max)
        inputs.append(values.astype(dtype))
    return inputs


def litert_interpreter(model_path, num_threads, reference):
    """A LiteRT interpreter on the seed-1 inputs, warmed up."""
    make = pvtools.reference_interpreter if reference else pvtools.xnnpack_interpreter
    interp = make(model_path=model_path, num_threads=num_threads)
    interp.allocate_tensors()
    for detail, value in zip(interp.get_input_details(), model_inputs(interp)):
        interp.set_tensor(detail["index"], value)
    start, count = time.perf_counter(), 0
    while count < WARMUP or time.perf_counter() - start < WARMUP_SECONDS:
        interp.invoke()
        count += 1
    return interp


def time_invocations(interp, runs):
    """The latency in milliseconds of each of `runs` invocations."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        interp.invoke()
        times.append((time.perf_counter() - start) * 1000.0)
    return times


def summary(times):
    """(min, median, p90) of latencies in milliseconds."""
    return float(np.min(times)), float(np.median(times)), float(np.percentile(times, 90))


def time_litert(model_path, num_threads, reference, runs):
    """(min, median, p90) in milliseconds over `runs` invocations after the warm-up."""
    return summary(time_invocations(litert_interpreter(model_path, num_threads, reference), runs))


def time_alternating(bench, model_path, name, threads, runs, rounds):
    """Ours and LiteRT XNNPACK alternating `rounds` times, ceil(runs / rounds) runs per side and round: (our record
    with min/median/p90 over the pooled runs, or None; XNNPACK's (min, median, p90))."""
    per_round = -(-runs // rounds)
    interp = litert_interpreter(model_path, threads, False)
    ours, theirs = [], []
    for _ in range(rounds):
        record = run_bench(bench, per_round, [name], threads, times=True).get((name, threads))
        values = record.get("times_ms") if record is not None else None
        theirs += time_invocations(interp, per_round)
        if not isinstance(values, list) or not values:
            if record is not None:
                print(f"bench gave no times_ms for {name}; is it older than --times?", file=sys.stderr)
            return None, summary(theirs)
        ours += [float(v) for v in values]
    low, median, p90 = summary(ours)
    return {"min_ms": low, "median_ms": median, "p90_ms": p90, "runs": len(ours)}, summary(theirs)


def _fmt(value, digits=2):
    return "-" if value is None else f"{value:.{digits}f}"


def _ratio(ours, theirs):
    return None if ours is None or not theirs else ours / theirs


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", default=".build/release/bench", help="path of our bench executable")
    parser.add_argument("--no-bench", action="store_true", help="time LiteRT only")
    parser.add_argument("--no-codegen", action="store_true",
                        help="time our Swift SIMD kernels (bench --no-codegen), what Apple platforms and arm64 run")
    parser.add_argument("--portable-haswell", action="store_true",
                        help="build the bench for an AVX2 + FMA target into .build-haswell (swift build -Xswiftc "
                             "-target-cpu -Xswiftc haswell -Xcc -march=haswell) and time it with --no-codegen: the "
                             "stand-in on x86 for the Swift SIMD kernels an arm64 core with NEON FMA runs")
    parser.add_argument("--quantized-arithmetic", choices=["xnnpack", "litert"],
                        help="our 8-bit rounding (bench default: xnnpack, what LiteRT-XNNPACK computes)")
    parser.add_argument("--xnnpack-isa", choices=["native", "avx2"], default="native",
                        help="hold LiteRT's XNNPACK to AVX2 + FMA (avx2) instead of the CPU's widest instruction set "
                             "(native, the default): on an AVX-512 CPU, the same instruction set as --portable-haswell")
    parser.add_argument("--runs", type=int, default=50, help="timed runs per configuration (default 50)")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2], help="thread counts (default 1 2)")
    parser.add_argument("--models", nargs="+", help="model stems in Models/ (default: the six float models)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per row instead of a table")
    parser.add_argument("--peak", action="store_true",
                        help="measure the machine's arithmetic peak (bench --peak) and give each model's share of it")
    parser.add_argument("--interleave", action="store_true",
                        help="run our bench per (model, threads) right before LiteRT's timing of the same")
    parser.add_argument("--rounds", type=int, default=1,
                        help="with --interleave: alternate ours and XNNPACK this many times per (model, threads), "
                             "pooling the runs (default 1)")
    args = parser.parse_args()
    if args.portable_haswell:
        build = ["swift", "build", "-c", "release", "--product", "bench", "--build-path", ".build-haswell",
                 "-Xswiftc", "-target-cpu", "-Xswiftc", "haswell", "-Xcc", "-march=haswell"]
        print("building: " + " ".join(build), file=sys.stderr, flush=True)
        if subprocess.run(build, cwd=pvtools.REPO_ROOT).returncode != 0:
            sys.exit("the haswell build of the bench failed")
        args.bench = os.path.join(pvtools.REPO_ROOT, ".build-haswell", "release", "bench")
        args.no_codegen = True
    BENCH_FLAGS.extend(["--no-codegen"] if args.no_codegen else [])
    if args.quantized_arithmetic:
        BENCH_FLAGS.extend(["--quantized-arithmetic", args.quantized_arithmetic])
    if args.rounds < 1 or (args.rounds > 1 and not args.interleave):
        parser.error("--rounds takes a count ≥ 1 and needs --interleave")

    xnnpack_isa.apply_option(args.xnnpack_isa, "compare_speed")
    load_before = os.getloadavg()
    peaks = run_peak(args.bench, args.threads) if args.peak and not args.no_bench else {}
    names = args.models or DEFAULT_MODELS + OPTIONAL_MODELS
    ours = {} if args.no_bench or args.interleave else run_bench(args.bench, args.runs, names)
    if args.interleave and not args.no_bench and not args.models:
        names = DEFAULT_MODELS + [n for n in OPTIONAL_MODELS
                                  if os.path.exists(os.path.join(pvtools.MODELS_DIR, n + ".tflite"))]
    elif not args.models:
        names = DEFAULT_MODELS + [n for n in OPTIONAL_MODELS if any(key[0] == n for key in ours)]

    rows = []
    for name in names:
        path = os.path.join(pvtools.MODELS_DIR, name + ".tflite")
        if not os.path.exists(path):
            print(f"skipping {name}: {path} not found", file=sys.stderr)
            continue
        builtin = None
        for threads in args.threads:
            if builtin is None and threads == 1:
                builtin = time_litert(path, 1, True, args.runs)
            if args.interleave and not args.no_bench and args.rounds > 1:
                record, xnnpack = time_alternating(args.bench, path, name, threads, args.runs, args.rounds)
                if record is not None:
                    ours[(name, threads)] = record
                elif not args.models and name in OPTIONAL_MODELS:
                    continue  # as without --interleave: optional models only when our bench runs them
            else:
                if args.interleave and not args.no_bench:
                    ours.update(run_bench(args.bench, args.runs, [name], threads))
                    if not args.models and name in OPTIONAL_MODELS and (name, threads) not in ours:
                        continue  # as without --interleave: optional models only when our bench runs them
                xnnpack = time_litert(path, threads, False, args.runs)
            mine = ours.get((name, threads), {}).get("median_ms")
            mine = float(mine) if isinstance(mine, (int, float)) else None
            mine_min = ours.get((name, threads), {}).get("min_ms")
            mine_min = float(mine_min) if isinstance(mine_min, (int, float)) else None
            row = {
                "name": name, "threads": threads, "runs": args.runs, "rounds": args.rounds,
                "ours_min_ms": mine_min, "ours_median_ms": mine,
                "litert_xnnpack_min_ms": xnnpack[0], "litert_xnnpack_median_ms": xnnpack[1],
                "litert_xnnpack_p90_ms": xnnpack[2], "ratio_vs_xnnpack": _ratio(mine, xnnpack[1]),
                "min_ratio_vs_xnnpack": _ratio(mine_min, xnnpack[0]),
            }
            if name in KERNEL_FAMILIES:
                row["kernel_families"] = KERNEL_FAMILIES[name]
            if args.peak:
                gop, quantized = model_operations(path)
                row.update({"gop": gop, "quantized": quantized})
            if threads == 1 and builtin is not None:
                row.update({"litert_builtin_min_ms": builtin[0], "litert_builtin_median_ms": builtin[1],
                            "litert_builtin_p90_ms": builtin[2], "ratio_vs_builtin": _ratio(mine, builtin[1])})
            rows.append(row)
            if args.json and not args.peak:
                print(json.dumps(row), flush=True)

    if args.peak:
        for key, value in run_peak(args.bench, args.threads).items():
            peaks[key] = max(value, peaks.get(key, 0.0))
        add_peak_shares(rows, peaks, widest=args.xnnpack_isa == "native")
        if args.json:
            for row in rows:
                print(json.dumps(row), flush=True)

    if not args.json:
        header = (f"{'model':34s} {'thr':>3s} {'ours ms':>9s} {'XNNPACK ms':>11s} {'ratio':>6s} {'min ratio':>9s} "
                  f"{'builtin ms':>11s} {'ratio':>6s}")
        print(header)
        print("-" * len(header))
        for row in rows:
            print(f"{row['name']:34s} {row['threads']:3d} {_fmt(row['ours_median_ms']):>9s} "
                  f"{_fmt(row['litert_xnnpack_median_ms']):>11s} {_fmt(row['ratio_vs_xnnpack']):>6s} "
                  f"{_fmt(row['min_ratio_vs_xnnpack']):>9s} "
                  f"{_fmt(row.get('litert_builtin_median_ms')):>11s} {_fmt(row.get('ratio_vs_builtin')):>6s}")
        print(f"medians over {args.runs} runs after {WARMUP} warm-up runs and at least {WARMUP_SECONDS} s; "
              f"LiteRT builtin kernels with 1 thread; "
              f"ratio = ours / LiteRT (min ratio: of the fastest runs)"
              + ("; interleaved per model" if args.interleave else "")
              + (f" in {args.rounds} alternating rounds" if args.rounds > 1 else "")
              + ("; XNNPACK held to AVX2 + FMA (--xnnpack-isa avx2)" if args.xnnpack_isa == "avx2" else ""))
        if BENCH_ENVIRONMENT:
            print(f"our kernels: {BENCH_ENVIRONMENT.get('codegen', '?')}; Swift kernels compiled for "
                  f"{BENCH_ENVIRONMENT.get('swift_kernels', '? (bench older than this script)')}")
        labels = {"generated": "generated", "swiftSIMD": "Swift SIMD", "blas": "BLAS"}
        for name in dict.fromkeys(row["name"] for row in rows):
            if name in KERNEL_FAMILIES:
                counts = ", ".join(f"{labels.get(k, k)} {v}" for k, v in KERNEL_FAMILIES[name].items() if v)
                print(f"  {name}: convolution / fully connected steps by kernel family: {counts or 'none'}")
        if args.peak:
            print()
            print(f"{'model':34s} {'thr':>3s} {'GOP':>6s} {'peak':>25s} {'ours GOP/s':>10s} {'share':>6s} "
                  f"{'XNNPACK GOP/s':>13s} {'share':>6s}")
            percent = lambda v: "-" if v is None else f"{100 * v:.0f} %"  # noqa: E731
            for row in rows:
                peak = row["peak_gops"]
                ours_rate = None if row["ours_median_ms"] is None else row["gop"] / row["ours_median_ms"] * 1e3
                theirs_rate = row["gop"] / row["litert_xnnpack_median_ms"] * 1e3
                print(f"{row['name']:34s} {row['threads']:3d} {row['gop']:6.3f} "
                      f"{row['peak_name'] + ' ' + _fmt(peak, 0):>25s} {_fmt(ours_rate, 1):>10s} "
                      f"{percent(row['ours_share_of_peak']):>6s} {theirs_rate:13.1f} "
                      f"{percent(row['xnnpack_share_of_peak']):>6s}")
            print("GOP: 2 × multiply-adds of the convolutions and fully connected layers; peak: the higher of bench "
                  "--peak before and after the models, GOP/s (the loop named); share = GOP/s at "
                  "the median latency / peak")
        load_after = os.getloadavg()
        print("load average (1, 5, 15 min): before " + " ".join(f"{v:.2f}" for v in load_before)
              + ", after " + " ".join(f"{v:.2f}" for v in load_after))
    return 0


if __name__ == "__main__":
    sys.exit(main())
