#!/usr/bin/env bash
# Seeds and runs one libFuzzer target built by tools/fuzz/build.sh, from the repository root:
#
#   tools/fuzz/run.sh TARGET [extra libFuzzer flags]     # TIME=600 (seconds) RSS_MB=2560 by default
#
# Corpus: .build/fuzz/corpus/TARGET (seeded on first use from the real files: Models/, test fixtures, the shared
# test photos); crashes: .build/fuzz/artifacts/TARGET/; log: .build/fuzz/logs/TARGET.log. None of these go into
# git: a crash input, once minimised (`fuzz_TARGET -minimize_crash=1 -runs=10000 FILE`) and fixed, is committed
# as a regression input under Tests/<Module>Tests/Fixtures/regressions/ with a test that loads it.
set -euo pipefail
cd "$(dirname "$0")/../.."
target=${1:?usage: tools/fuzz/run.sh TARGET [libFuzzer flags]}
shift
OUT=.build/fuzz
TESTDATA=${PUREVISION_TESTDATA:-/work/shared/testdata}
corpus=$OUT/corpus/$target seeds=$OUT/seeds/$target
mkdir -p "$corpus" "$seeds" "$OUT/artifacts/$target" "$OUT/logs"

seed_files() {
    case $target in
        npy) find Tests -name '*.npy' -size -64k ;;
        png) find Tests "$TESTDATA" -path '*/fetched' -prune -o -name '*.png' -size -256k -print ;;
        jpeg) find Tests "$TESTDATA" -path '*/fetched' -prune -o \( -name '*.jpg' -o -name '*.jpeg' \) -size -128k -print ;;
        tflite_model) find Tests Models -name '*.tflite' ;;
        model_bundle) find Tests Models -name '*.tflite' -o -name '*.task' ;;
        y4m) find Tests -name '*.y4m' ;;
    esac
}

if [[ -z $(ls -A "$seeds") ]]; then
    i=0
    while read -r f; do cp "$f" "$seeds/$(printf %04d $i)_$(basename "$f")"; i=$((i + 1)); done < <(seed_files)
    if [[ $target == model_bundle ]]; then
        # A small stored .task bundle of small models, so the fuzzer meets a whole ZIP within max_len.
        tmp=$(mktemp -d)
        cp Tests/PureVisionTests/Fixtures/classifier/tiny_meta.tflite "$tmp/a.tflite"
        cp Tests/PureVisionTests/Fixtures/classifier/tiny_nometa.tflite "$tmp/b.tflite"
        (cd "$tmp" && zip -q -0 bundle.task a.tflite b.tflite)
        cp "$tmp/bundle.task" "$seeds/small_bundle.task"
        rm -r "$tmp"
    fi
    echo "$target: $(ls "$seeds" | wc -l) seed files"
fi

# Multi-megabyte photos held the jpeg target at ~120 executions/s: its seeds are the JPEGs under 128 KB.
# The op fixtures (≤ 11 KB) are what the tflite_model target learns most from; the real models, cut at max_len,
# still seed the reader's paths. (A run with max_len 1 MiB managed ~95 executions/s, against ~1,500 at 64 KiB.)
case $target in
    npy | tflite_model | y4m) max_len=65536 ;;
    png) max_len=262144 ;;
    jpeg) max_len=131072 ;;
    *) max_len=1048576 ;;
esac
# Swift's own crash backtracer and ASan's report would interleave; libFuzzer's report is the one wanted.
export SWIFT_BACKTRACE=enable=no
"$OUT/bin/fuzz_$target" "$corpus" "$seeds" -max_len=$max_len -max_total_time="${TIME:-600}" \
    -rss_limit_mb="${RSS_MB:-2560}" -malloc_limit_mb="${MALLOC_MB:-2048}" -timeout=20 -print_final_stats=1 \
    -artifact_prefix="$OUT/artifacts/$target/" "$@" 2>&1 | tee "$OUT/logs/$target.log" | grep -v '^#[0-9]*.*\(NEW\|REDUCE\)'
