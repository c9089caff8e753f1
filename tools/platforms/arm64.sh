#!/usr/bin/env bash
# Linux arm64 (aarch64) on this x86-64 Debian machine: cross-builds the package with Swift 6.2.3 and runs its tests
# under qemu-user. Run as root from the repository root; everything comes from the Debian registry.
#
#   tools/platforms/arm64.sh [-h] [--build-only] [--suites "FILTER ..."] [--extra] [--all]
#
# How:
#   - A Debian sid amd64 root (mmdebstrap) holds the compiler, sid's `swiftlang` 6.2.3. An arm64 sid root, only
#     unpacked (no emulation needed to make it), is the sysroot: the Swift runtime, libopenblas, libpng, libjpeg.
#   - `swift build --destination` in the compiler root, release, with the tests; the package is synchronised into
#     $W/pkg (rsync, so a second run rebuilds only what changed). The source tree is only read.
#   - The test binary runs inside the arm64 root through binfmt + qemu-aarch64-static, as the Swift Testing runner
#     `PureVisionPackageTests.xctest --testing-library swift-testing`, one process per group of suites (--suites),
#     each with its own time limit. QEMU_CPU=neoverse-n1: qemu's default `max` CPU makes OpenBLAS 0.3.x pick an sgemm
#     kernel that is an empty stub ("should never get called").
#
# Options:
#   --build-only      build, do not run tests
#   --suites "F ..."  Swift Testing --filter regular expressions, one test process each (default: the four groups
#                     listed in the script, DEFAULT_GROUPS)
#   --extra           the groups CI leaves out (EXTRA_GROUPS: whole-model engine suites, every compatibility-layer
#                     and CLI test)
#   --all             every test in one process, every golden (several hours under emulation on 2 cores)
#   -h, --help        this text
# Environment: W (work dir, default /tmp/purevision-arm64, ~7 GB), MIRROR (Debian registry URL; default: the first
# one apt uses here), GROUP_TIMEOUT (seconds per test process, default 1500), QEMU_CPU (default neoverse-n1),
# GOLDEN_STRIDE (run every n-th golden of the sampled parity tests, default 8; 1 with --all).
#
# Exit status: 0 when the build succeeds and every test process passes; 1 otherwise; 2 on a usage error.
set -euo pipefail

# What CI runs under emulation (about 13 minutes of tests on 2 free cores): every test module, but of the
# model-heavy suites only a sample, since a model under qemu runs 30–50 times slower than natively (qemu emulates
# NEON floating point in software) and the whole suite takes hours there. `--extra` runs what CI leaves out of the
# modules (EXTRA_GROUPS), `--all` everything in one process.
#   1. Core, TFLite reader, image codecs, kernels: every test (the kernels' twin tests on odd shapes included).
#   2. Engine: every operator-level suite (float and 8-bit operator goldens, malformed and empty-tensor models,
#      limits, slot sharing, fusion); not the whole-model suites (ModelParityTests, QuantizedModelParityTests,
#      XNNPACKQuantizedParityTests, BundledModelTests, BroadcastPrefixFoldingTests).
#   3. Tasks: the image-mode MediaPipe parity tests of hands, face landmarks, pose, the classifier and the face
#      detector on every GOLDEN_STRIDE-th golden (PUREVISION_GOLDEN_STRIDE), and the task suites that run no model.
#   4. The MediaPipe and ML Kit compatibility layers and the CLI: the suites that run a model on a few images or
#      none (options, errors, bad input, help); the video, live-stream and whole-pipeline comparisons are in
#      EXTRA_GROUPS (113 tests of the three modules in 1,108 s under emulation, 2026-12-05).
# The generated-code suites skip themselves (x86 machine code).
DEFAULT_GROUPS=(
    'PureVisionCoreTests|PureVisionTFLiteTests|PureVisionImageTests|PureVisionKernelsTests'
    'PureVisionEngineTests\.(OperatorCaseTests|QuantizedOperatorCaseTests|EmptyTensorTests|SlotSharingTests|InterpreterLimitsTests|TransposeConvTests|DetectionPostProcessTests|FuzzRegressionTests|EpilogueFusionTests|MalformedModelTests)'
    'HandLandmarkerParityTests/imageModeWorstCase|FaceLandmarkerParityTests/imageModeMatchesMediaPipe|PoseLandmarkerParityTests/imageModeMatchesMediaPipe|ImageClassifierParityTests/matchesMediaPipe|FaceDetectorParityTests/shortRangeMatchesMediaPipeTasks|PureVisionTests\.(DetectionDecoderTests|DetectionProjectionTests|DetectionsToRectsTests|NonMaxSuppressionTests|SSDAnchorsTests|OneEuroFilterTests|HandLandmarkSmootherTests|RectTransformationTests|ImageToTensorConverterTests|YUVPreprocessingTests|TaskRunnerTests|TaskRunnerThreadTests|HeadPoseTests|WorldLandmarkProjectionTests|ThirtyTwoBitLimitsTests|PublicTypeNamesTests|ImageProcessingOptionsTests)'
    'PureVisionMediaPipeTests\.(BaseOptionsCompatTests|FaceDetectorCompatTests|ImageClassifierCompatTests|ImageEmbedderCompatTests|ImageSegmenterCompatTests)|PureVisionMLKitTests\.(MLKitBadInputTests|MLKitCompatTests|ImageLabelerCompatTests|SegmenterCompatTests)|PureVisionCLITests\.(HelpTests|FaceLandmarksCommandTests)'
)
# The rest of the modules' suites (--extra).
EXTRA_GROUPS=(
    'PureVisionEngineTests\.(ModelParityTests|QuantizedModelParityTests|XNNPACKQuantizedParityTests|BundledModelTests|BroadcastPrefixFoldingTests)'
    'PureVisionMediaPipeTests|PureVisionMLKitTests|PureVisionCLITests'
)

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
BUILD_ONLY=0
GROUPS_ARG=()
while [ $# -gt 0 ]; do
    case "$1" in
    -h | --help) usage; exit 0 ;;
    --build-only) BUILD_ONLY=1 ;;
    --suites) shift; [ $# -gt 0 ] || { echo "arm64: --suites needs a value" >&2; exit 2; }; read -r -a GROUPS_ARG <<<"$1" ;;
    --all) GROUPS_ARG=('') ; GOLDEN_STRIDE=${GOLDEN_STRIDE:-1} ;;
    --extra) GROUPS_ARG=("${EXTRA_GROUPS[@]}") ;;
    *) echo "arm64: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
[ ${#GROUPS_ARG[@]} -gt 0 ] && TEST_GROUPS=("${GROUPS_ARG[@]}") || TEST_GROUPS=("${DEFAULT_GROUPS[@]}")

SRC=$(pwd)
[ -f "$SRC/Package.swift" ] && [ -d "$SRC/Sources/PureVisionCore" ] || { echo "arm64: run from the repository root" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "arm64: needs root (mmdebstrap, chroot, binfmt)" >&2; exit 2; }
W=${W:-/tmp/purevision-arm64}
GROUP_TIMEOUT=${GROUP_TIMEOUT:-1500}
GOLDEN_STRIDE=${GOLDEN_STRIDE:-8}
apt_mirror() {
    { grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}'
      grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | awk '{print $2}'; } | grep -v security | head -1 || true
}
MIRROR=${MIRROR:-$(apt_mirror)}
[ -n "$MIRROR" ] || { echo "arm64: no Debian registry URL in apt's sources: set MIRROR" >&2; exit 2; }
H=$W/host    # amd64 sid root: the compiler
R=$W/sysroot # arm64 sid root (unpacked only): the SDK and the runtime the tests run on
P=$W/pkg
mkdir -p "$W"

say() { printf 'arm64: %s\n' "$*" >&2; }
step() { # step NAME COMMAND...: run and time
    local name=$1 t0 rc=0
    shift
    t0=$(date +%s)
    "$@" || rc=$?
    say "$name: $(($(date +%s) - t0)) s (exit $rc)"
    return $rc
}

mounts=()
bindmount() { # bindmount SRC|proc DST
    mkdir -p "$2"
    mountpoint -q "$2" && return 0
    if [ "$1" = proc ]; then mount -t proc proc "$2"; else mount --bind "$1" "$2"; fi
    mounts+=("$2")
}
cleanup() {
    local i
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" || true; done
}
trap cleanup EXIT

host_tools() {
    export DEBIAN_FRONTEND=noninteractive
    if ! command -v mmdebstrap >/dev/null || ! command -v qemu-aarch64-static >/dev/null || ! command -v update-binfmts >/dev/null \
        || ! command -v rsync >/dev/null; then
        apt-get update -qq && apt-get install -y -qq mmdebstrap qemu-user-static binfmt-support rsync >/dev/null
    fi
    mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || update-binfmts --enable qemu-aarch64
    grep -q enabled /proc/sys/fs/binfmt_misc/qemu-aarch64
}
step "host tools and binfmt" host_tools

# sid's Release file may be past its Valid-Until date in the registry's copy: accept it.
MMOPTS=(--aptopt='Acquire::Check-Valid-Until "false"' --dpkgopt=force-unsafe-io
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*'
    --dpkgopt='path-exclude=/usr/share/locale/*')

# sid, not trixie: trixie's swiftlang is 6.0.3, which cannot compile the test suite (a compiler crash on
# `@Test(arguments: x.filter { … })`); sid's libc6 is newer than this host's, hence a root of its own.
if [ ! -x "$H/usr/libexec/swift/bin/swift-frontend" ]; then
    rm -rf "$H"
    step "amd64 compiler root (sid, swiftlang)" mmdebstrap --variant=apt --arch=amd64 --include=swiftlang,libc6-dev \
        "${MMOPTS[@]}" sid "$H" "$MIRROR" >"$W/mm-host.log" 2>&1
fi
if [ ! -e "$R/usr/libexec/swift/lib/swift/linux/libswiftCore.so" ]; then
    rm -rf "$R"
    step "arm64 sysroot (sid, unpacked)" mmdebstrap --variant=extract --arch=arm64 \
        --include=swiftlang,libopenblas-dev,libpng-dev,libjpeg-dev,libc6-dev,dash,bash,coreutils \
        "${MMOPTS[@]}" sid "$R" "$MIRROR" >"$W/mm-sysroot.log" 2>&1
fi

fixups() {
    # The alternatives links libopenblas's maintainer scripts would have made (relative: valid in both roots).
    (cd "$R/usr/lib/aarch64-linux-gnu" && for f in libopenblas.so.0 libopenblas.so libblas.so.3 libblas.so liblapack.so.3 liblapack.so; do
        [ -e $f ] || ln -s openblas-pthread/$f $f
    done)
    (cd "$R/usr/include/aarch64-linux-gnu" && for f in cblas.h openblas_config.h; do
        [ -e $f ] || ln -s openblas-pthread/$f $f
    done)
    # Binaries linked in the compiler root carry RUNPATH /sysroot/…: make that path valid inside the arm64 root too.
    [ -e "$R/sysroot" ] || ln -s / "$R/sysroot"
    chmod 1777 "$R/tmp"
    cat >"$H/destination.json" <<'EOF'
{
  "version": 1,
  "sdk": "/sysroot",
  "toolchain-bin-dir": "/usr/libexec/swift/bin",
  "target": "aarch64-unknown-linux-gnu",
  "extra-cc-flags": [],
  "extra-swiftc-flags": ["-sdk", "/sysroot", "-resource-dir", "/sysroot/usr/libexec/swift/lib/swift", "-use-ld=lld",
                         "-plugin-path", "/usr/libexec/swift/lib/swift/host/plugins"],
  "extra-cpp-flags": []
}
EOF
    bindmount proc "$H/proc"
    bindmount /dev "$H/dev"
    bindmount /sys "$H/sys"
    bindmount proc "$R/proc"
    bindmount /dev "$R/dev"
    bindmount "$R" "$H/sysroot"
    # Debian's swiftlang 6.2.3 ships _Testing_Foundation.swiftmodule without lib_Testing_Foundation.so, which every
    # test bundle importing Testing and Foundation autolinks: an empty library satisfies the linker.
    local stub=$R/usr/libexec/swift/lib/swift/linux/lib_Testing_Foundation.so
    if [ ! -e "$stub" ]; then
        : >"$H/tmp/empty.c"
        chroot "$H" /usr/libexec/swift/bin/clang --target=aarch64-linux-gnu -shared -nostdlib -fuse-ld=lld \
            -o /sysroot/usr/libexec/swift/lib/swift/linux/lib_Testing_Foundation.so /tmp/empty.c
    fi
    say "compiler: $(chroot "$H" /usr/libexec/swift/bin/swift --version 2>/dev/null | head -1)"
}
step "fix-ups" fixups

sync_package() {
    mkdir -p "$P"
    rsync -a --delete --exclude=/.build --exclude=/.build-arm64 --exclude=/.git --exclude='/Examples/.build' "$SRC/" "$P/"
    # The same path in both roots, so that #filePath-based fixture lookups work where the tests run.
    bindmount "$P" "$H/pkg"
    bindmount "$P" "$R/pkg"
}
step "package copy" sync_package

build() {
    chroot "$H" /bin/sh -c "cd /pkg && swift build --destination /destination.json --scratch-path /pkg/.build-arm64 \
        -c release --build-tests" >"$W/build.log" 2>&1
}
if ! step "cross build (release, tests)" build; then
    grep -E 'error:' "$W/build.log" | grep -v SDKSettings | head -30 >&2
    say "build failed; log: $W/build.log"
    exit 1
fi
# No warnings from the package's own files (the SDK's SDKSettings notes are the cross toolchain's, not ours).
warnings=$(grep -E '^/pkg/.*warning:' "$W/build.log" | sort -u || true)
[ -z "$warnings" ] || { printf '%s\n' "$warnings" >&2; say "the cross build has warnings"; exit 1; }
[ "$BUILD_ONLY" = 1 ] && { say "built; tests not run (--build-only)"; exit 0; }

failed=0
index=0
for filter in "${TEST_GROUPS[@]}"; do
    index=$((index + 1))
    log=$W/test-$index.log
    args="--testing-library swift-testing"
    [ -n "$filter" ] && args="$args --filter '$filter'"
    run_group() {
        # PUREVISION_REQUIRE_GENERATED_CODE is about the x86 host (.ci/run exports it there); the emulated arm64
        # process has no generated code, so the requirement must not reach it.
        PUREVISION_REQUIRE_GENERATED_CODE=0 PUREVISION_GOLDEN_STRIDE=$GOLDEN_STRIDE QEMU_CPU=${QEMU_CPU:-neoverse-n1} timeout "$GROUP_TIMEOUT" chroot "$R" /bin/sh -c \
            "cd /pkg && .build-arm64/aarch64-unknown-linux-gnu/release/PureVisionPackageTests.xctest $args" >"$log" 2>&1
    }
    rc=0
    step "tests ${filter:-(all)}" run_group || rc=$?
    grep -E '✘|recorded an issue' "$log" | head -40 >&2 || true
    summary=$(grep -E '(Test run with|tests? in) .* (passed|failed)' "$log" | tail -1 || true)
    say "  ${summary:-no summary line (exit $rc; 124 is the time limit)}"
    [ $rc -eq 0 ] || failed=$((failed + 1))
done
[ $failed -eq 0 ] || { say "$failed of ${#TEST_GROUPS[@]} test processes failed; logs: $W/test-*.log"; exit 1; }
say "all ${#TEST_GROUPS[@]} test processes passed"
