#!/usr/bin/env bash
# Runs one of the arm64 executables that tools/platforms/arm64.sh cross-built (purevision, bench) under qemu-user,
# in that script's arm64 root, from the current directory: a stand-in for the x86 binary wherever a tool takes a
# command. Run as root from the repository root, after tools/platforms/arm64.sh (or with --build-only).
#
#   tools/platforms/arm64-run.sh [-h] PRODUCT [ARGUMENT ...]
#
# For example, every intermediate tensor of a model on the arm64 Swift kernels against LiteRT-XNNPACK on x86:
#
#   python3 tools/compare_tensors_xnnpack.py Models/palm_detection_full.tflite --purevision tools/platforms/arm64-run.sh
#
# (with the argument `purevision` implied when the first argument is not a product name, as there).
#
# How: the current directory and /tmp are bind-mounted at the same paths in the arm64 root, with /proc and /dev, so
# that relative and temporary paths (files elsewhere are not seen) mean the same inside; the binary runs from the
# package copy arm64.sh built ($W/pkg/.build-arm64) with QEMU_CPU=neoverse-n1, and the mounts are undone when it
# ends. Environment: W (arm64.sh's work dir, default /tmp/purevision-arm64), QEMU_CPU.
# Exit status: the program's; 2 on a usage error or when the arm64 build is missing.
set -euo pipefail

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }
[ "${1:-}" = -h ] || [ "${1:-}" = --help ] && { usage; exit 0; }
[ $# -ge 1 ] || { usage >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "arm64-run: needs root (chroot, bind mounts)" >&2; exit 2; }

W=${W:-/tmp/purevision-arm64}
R=$W/sysroot
BIN=$W/pkg/.build-arm64/aarch64-unknown-linux-gnu/release
case "$1" in
purevision | bench) product=$1; shift ;;
*) product=purevision ;;
esac
[ -x "$BIN/$product" ] || { echo "arm64-run: no $BIN/$product; run tools/platforms/arm64.sh first" >&2; exit 2; }
here=$(pwd)

mounts=()
cleanup() {
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" || true; done
}
trap cleanup EXIT
bind() { # bind SRC|proc DST
    mkdir -p "$2"
    mountpoint -q "$2" && return 0
    if [ "$1" = proc ]; then mount -t proc proc "$2"; else mount --bind "$1" "$2"; fi
    mounts+=("$2")
}
bind proc "$R/proc"
bind /dev "$R/dev"
bind "$W/pkg" "$R/pkg"
bind /tmp "$R/tmp"
bind "$here" "$R$here"

quoted=$(printf ' %q' "$@")
rc=0
QEMU_CPU=${QEMU_CPU:-neoverse-n1} chroot "$R" /bin/sh -c "cd $(printf '%q' "$here") && \
    /pkg/.build-arm64/aarch64-unknown-linux-gnu/release/$product$quoted" || rc=$?
exit $rc
