#!/usr/bin/env bash
# Makes the gallery of the README and the DocC articles: one annotated picture per task, drawn by the CLI's `--out`
# from a committed test photo, as Sources/PureVision/PureVision.docc/Resources/gallery-<task>.png. Deterministic: the
# same build draws the same bytes (one thread, OPENBLAS_NUM_THREADS=1).
#
#   tools/make_gallery.sh            # (re)writes the pictures
#   tools/make_gallery.sh --check    # regenerates them into a temporary directory; fails unless each committed
#                                    # picture is byte for byte the same
set -euo pipefail
cd "$(dirname "$0")/.."
CHECK=0
case "${1:-}" in
    --check) CHECK=1 ;;
    "") ;;
    *) echo "usage: tools/make_gallery.sh [--check]" >&2; exit 2 ;;
esac
OUT=Sources/PureVision/PureVision.docc/Resources
F=Tests/PureVisionTests/Fixtures
export OPENBLAS_NUM_THREADS=1

swift build -c release --product purevision >&2
BIN="$(swift build -c release --show-bin-path)/purevision"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# task|purevision arguments|the file --out writes
GALLERY=(
    "faces|faces $F/faces/astronaut_scale25.png|astronaut_scale25_faces.png"
    "face-analyze|face-analyze $F/faces/grace_hopper_scale25.png --landmarks --contours --classify|grace_hopper_scale25_face_analysis.png"
    "face-landmarks|face-landmarks $F/faces/opencvdoc_face_scale25.png|opencvdoc_face_scale25_face_landmarks.png"
    "hands|hands $F/hands/hand_dst_scale50.png|hand_dst_scale50_hands.png"
    "gestures|gestures $F/hands/palm_up.jpg|palm_up_gestures.png"
    "pose|pose $F/pose/basketball_scale50.png|basketball_scale50_pose.png"
    "objects|objects $F/segmenter/opencv_basketball1.png --max-results 3|opencv_basketball1_objects.png"
    "segment|segment $F/segmenter/skimage_astronaut.png --background #3CB371|skimage_astronaut_background.png"
)

status=0
for entry in "${GALLERY[@]}"; do
    IFS='|' read -r task arguments file <<<"$entry"
    # shellcheck disable=SC2086  # the arguments are words
    "$BIN" $arguments --out "$WORK/$task" >/dev/null
    picture="gallery-$task.png"
    if [ "$CHECK" = 1 ]; then
        if ! cmp -s "$WORK/$task/$file" "$OUT/$picture"; then
            echo "make_gallery.sh: $OUT/$picture differs from what the script draws" >&2
            status=1
        fi
    else
        mkdir -p "$OUT"
        cp "$WORK/$task/$file" "$OUT/$picture"
    fi
done
if [ "$CHECK" = 1 ] && [ "$status" = 0 ]; then echo "make_gallery.sh: the ${#GALLERY[@]} pictures are up to date"; fi
exit "$status"
