#!/usr/bin/env bash
# The portable Swift kernels as an AVX2 + FMA build compiles them: builds the package and its tests with
# `-Xswiftc -target-cpu -Xswiftc haswell -Xcc -march=haswell` (command-line flags only, as the README's "Measuring
# what iPhones and arm64 run" builds the bench) and runs the whole suite with the Swift kernels
# (PUREVISION_DISABLE_GENERATED_CODE=1).
# This is the build that stands in for arm64 NEON here, and the only one that compiles the 256-bit Swift paths
# (`canImport(CPureVisionTargetFeatures.AVX2)`, the fused multiply-adds): the default build never compiles them.
#
#   tools/platforms/avx2.sh [-h]
#
# Environment: BUILD_PATH (default .build-haswell). Exit status: 0 when the suite passes, 1 when it fails, 2 on a
# usage error; on a CPU without AVX2 and FMA it says so and exits 0 (the default build's tests cover that CPU).
set -euo pipefail
case "${1:-}" in
-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
"") ;;
*) echo "avx2: unknown option $1 (see --help)" >&2; exit 2 ;;
esac
[ -f Package.swift ] && [ -d Sources/PureVisionKernels ] || { echo "avx2: run from the repository root" >&2; exit 2; }
if ! grep -qw avx2 /proc/cpuinfo 2>/dev/null || ! grep -qw fma /proc/cpuinfo 2>/dev/null; then
    echo "avx2: this CPU lacks AVX2 or FMA; the AVX2 build's tests cannot run here (not run)"
    exit 0
fi
BUILD_PATH=${BUILD_PATH:-.build-haswell}
flags=(-c release --build-path "$BUILD_PATH" -Xswiftc -target-cpu -Xswiftc haswell -Xcc -march=haswell)
swift build "${flags[@]}" --build-tests
PUREVISION_DISABLE_GENERATED_CODE=1 swift test "${flags[@]}" --skip-build
