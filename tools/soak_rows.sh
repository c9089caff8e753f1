#!/usr/bin/env bash
# Runs `bench --soak FRAMES` one row per process (a row being a task in one running mode, e.g.
# hand_landmarker_live_stream), writing OUT_DIR/<row>.log, and skips rows whose log is already complete, so a long
# soak (100,000 frames a row is about 15 core-hours for all 31 rows here) can be stopped and resumed.
#
#   tools/soak_rows.sh [FRAMES] [OUT_DIR] [ROW ...]     (defaults: 100000, .build/soak, every row)
#
# Build first (`swift build -c release --product bench`); the script copies the bench binary into OUT_DIR once, so
# rebuilding meanwhile does not change the rows still to run (delete OUT_DIR/bench to take a new build).
set -euo pipefail
cd "$(dirname "$0")/.."
frames="${1:-100000}"
out="${2:-.build/soak}"
shift $(( $# > 2 ? 2 : $# ))
mkdir -p "$out"
[ -x "$out/bench" ] || cp .build/release/bench "$out/bench"
rows=("$@")
if [ ${#rows[@]} -eq 0 ]; then
    for task in face_detector hand_landmarker image_classifier face_analyzer image_segmenter selfie_segmenter \
        pose_landmarker face_landmarker gesture_recognizer object_detector image_embedder; do
        for mode in image video live_stream; do
            [ "$task" = selfie_segmenter ] && [ "$mode" = live_stream ] && continue
            rows+=("${task}_${mode}")
        done
    done
fi
for row in "${rows[@]}"; do
    log="$out/$row.log"
    if [ -s "$log" ] && grep -q "^largest growth" "$log"; then continue; fi
    echo "soak $row ($frames frames) -> $log"
    "$out/bench" --soak "$frames" --filter "$row" > "$log" 2>&1
done
grep -h -E "^[a-z_]+_(image|video|live_stream) " "$out"/*.log || true
