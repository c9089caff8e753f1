#!/usr/bin/env bash
# Counts the heap allocations one interpreter run makes, per bundled model and thread count, with valgrind.
#
# For each model the release bench runs under memcheck twice, with 1 and with RUNS timed invocations (no warm-up);
# allocations per run = (allocs(RUNS) - allocs(1)) / (RUNS - 1), so everything done once (loading, packing, the
# first run's lazy set-up in libraries) cancels out. Prints one line per model and thread count:
#     MODEL threads T: A allocations per run
# and exits 1 if any A is above 0 (2 on a usage or measurement error).
#
# Usage (from anywhere; runs in the repository root):
#     tools/count_allocations.sh [MODEL_FILTER]
# Environment:
#     BENCH=path     a built bench executable to measure (default: `swift build -c release --product bench`)
#     RUNS=11        timed invocations of the long measurement (≥ 2)
#     THREADS="1 2"  thread counts to measure
#     JOBS=1         measurements run concurrently (valgrind runs each process on one core)
set -euo pipefail

cd "$(dirname "$0")/.."

MODELS=(
    palm_detection_full hand_landmark_full face_detection_short_range
    face_detection_full_range_sparse face_landmark efficientnet_lite0
)
FILTER="${1:-}"
RUNS="${RUNS:-11}"
THREADS="${THREADS:-1 2}"
JOBS="${JOBS:-1}"

if [[ $# -gt 1 || "$FILTER" == -* ]]; then
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
if ! [[ "$RUNS" =~ ^[0-9]+$ ]] || (( RUNS < 2 )); then
    echo "RUNS must be an integer ≥ 2" >&2
    exit 2
fi
if ! command -v valgrind >/dev/null; then
    echo "valgrind is not installed (apt-get install -y valgrind)" >&2
    exit 2
fi
if [[ -z "${BENCH:-}" ]]; then
    swift build -c release --product bench >&2
    BENCH="$(swift build -c release --show-bin-path)/bench"
fi

selected=()
for model in "${MODELS[@]}"; do
    if [[ -z "$FILTER" || "$model" == *"$FILTER"* ]]; then selected+=("$model"); fi
done
if (( ${#selected[@]} == 0 )); then
    echo "no bundled model matches '$FILTER' (models: ${MODELS[*]})" >&2
    exit 2
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Writes the "total heap usage" allocation count of one bench process to $work/MODEL.T.R.
measure() {
    local model="$1" threads="$2" runs="$3"
    valgrind --tool=memcheck --leak-check=no "$BENCH" --filter "$model" --runs "$runs" --warmup 0 \
        --threads "$threads" 2>&1 >/dev/null \
        | sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' | tr -d , >"$work/$model.$threads.$runs"
}

running=0
for model in "${selected[@]}"; do
    for threads in $THREADS; do
        for runs in 1 "$RUNS"; do
            measure "$model" "$threads" "$runs" &
            running=$((running + 1))
            if (( running >= JOBS )); then
                wait -n || true
                running=$((running - 1))
            fi
        done
    done
done
wait || true

status=0
for model in "${selected[@]}"; do
    for threads in $THREADS; do
        once="$(cat "$work/$model.$threads.1")"
        many="$(cat "$work/$model.$threads.$RUNS")"
        if [[ -z "$once" || -z "$many" ]]; then
            echo "$model threads $threads: valgrind reported no heap usage (did the bench fail?)" >&2
            status=2
            continue
        fi
        perRun="$(awk -v a="$once" -v b="$many" -v r="$RUNS" 'BEGIN { v = (b - a) / (r - 1); print v }')"
        echo "$model threads $threads: $perRun allocations per run"
        if [[ "$status" == 0 ]] && awk -v v="$perRun" 'BEGIN { exit !(v > 0) }'; then status=1; fi
    done
done
exit "$status"
