#!/usr/bin/env bash
# Builds the example packages and runs each over the repository's test photos.
#
# Each example is its own SwiftPM package depending on PureVision by path, as an app would. They share one scratch
# directory (Examples/.build), so PureVision is compiled once for all of them, and they build in debug: that build is
# far cheaper than a release one and the examples' few images run in seconds either way. The programs are run from
# the repository root, where their relative paths (Models/, Tests/PureVisionTests/Fixtures/) point.
#
# Usage: Examples/run-all.sh            (CONFIGURATION=release Examples/run-all.sh for an optimized build)
# Exit status: non-zero if a build fails or an example reports FAILED.
set -euo pipefail
cd "$(dirname "$0")/.."

configuration="${CONFIGURATION:-debug}"
scratch="$PWD/Examples/.build"
examples=(MediaPipeHands MediaPipeClassifier MLKitFaces FirebaseFaces)
examples+=(MLKitPose MLKitSelfieSegmentation MLKitImageLabeling MLKitObjects)

for example in "${examples[@]}"; do
    echo "== build $example ($configuration)"
    swift build --package-path "Examples/$example" --scratch-path "$scratch" -c "$configuration"
done

for example in "${examples[@]}"; do
    echo "== run $example"
    "$scratch/$configuration/$example"
done
echo "== all examples passed"
