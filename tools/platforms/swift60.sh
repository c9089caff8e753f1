#!/usr/bin/env bash
# The oldest Swift the manifest declares (tools-version 6.0): builds every library product with Debian trixie's
# swiftlang 6.0.3 (the Swift of Xcode 16.0–16.2), in a root of its own. Run as root from the repository root.
#
#   tools/platforms/swift60.sh [-h] [-c debug|release]
#
# The library products are the bar (what an app builds); the tests need a newer Swift (6.0.3 crashes on
# `@Test(arguments: x.filter { … })`) and run with the newest. Swift 6.2.3 builds everything, tests included, in
# tools/platforms/arm64.sh. Debian's swiftlang is built with the compiler's assertions on, so it also runs the SIL
# verifier, which Xcode's compilers do not: it is the stricter of the two.
#
# Environment: W (work dir, default /tmp/purevision-swift60, ~2.5 GB), MIRROR (Debian registry URL; default: the
# first one apt uses here). Exit status: 0 when every product builds without warnings, 1 otherwise, 2 on a usage error.
set -euo pipefail
CONFIGURATION=debug
while [ $# -gt 0 ]; do
    case "$1" in
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    -c) shift; CONFIGURATION=${1:-}; case "$CONFIGURATION" in debug | release) ;; *) echo "swift60: -c debug|release" >&2; exit 2 ;; esac ;;
    *) echo "swift60: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
SRC=$(pwd)
[ -f "$SRC/Package.swift" ] && [ -d "$SRC/Sources/PureVisionCore" ] || { echo "swift60: run from the repository root" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "swift60: needs root (mmdebstrap, chroot)" >&2; exit 2; }
W=${W:-/tmp/purevision-swift60}
MIRROR=${MIRROR:-$({ grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}'
    grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | awk '{print $2}'; } | grep -v security | head -1 || true)}
[ -n "$MIRROR" ] || { echo "swift60: no Debian registry URL in apt's sources: set MIRROR" >&2; exit 2; }
R=$W/root
say() { printf 'swift60: %s\n' "$*" >&2; }
mkdir -p "$W"

if ! command -v mmdebstrap >/dev/null || ! command -v rsync >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap rsync >/dev/null
fi
if [ ! -x "$R/usr/libexec/swift/bin/swift-frontend" ]; then
    rm -rf "$R"
    t0=$(date +%s)
    mmdebstrap --variant=apt --arch=amd64 --include=swiftlang,libc6-dev,libopenblas-dev,libpng-dev,libjpeg-dev \
        --dpkgopt=force-unsafe-io --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
        --dpkgopt='path-exclude=/usr/share/locale/*' trixie "$R" "$MIRROR" >"$W/mmdebstrap.log" 2>&1 \
        || { say "mmdebstrap failed; log: $W/mmdebstrap.log"; exit 1; }
    say "trixie root: $(($(date +%s) - t0)) s"
fi

mounts=()
cleanup() { local m; for m in "${mounts[@]}"; do umount "$m" 2>/dev/null || umount -l "$m" || true; done; }
trap cleanup EXIT
for m in proc dev; do
    mountpoint -q "$R/$m" && continue
    if [ $m = proc ]; then mount -t proc proc "$R/proc"; else mount --bind /dev "$R/dev"; fi
    mounts+=("$R/$m")
done
mkdir -p "$R/pkg"
rsync -a --delete --exclude=/.build --exclude=/.git --exclude='/Examples/.build' "$SRC/" "$R/pkg/"
say "compiler: $(chroot "$R" /usr/libexec/swift/bin/swift --version 2>/dev/null | head -1)"

# The library products, in dependency order; each target build covers the modules below it.
status=0
for target in PureVisionMediaPipe PureVisionMLKit; do
    t0=$(date +%s)
    log=$W/build-$target.log
    if chroot "$R" /bin/sh -c "cd /pkg && /usr/libexec/swift/bin/swift build -c $CONFIGURATION --target $target" >"$log" 2>&1; then
        warnings=$(grep -E '^/pkg/.*warning:' "$log" | sort -u || true)
        if [ -n "$warnings" ]; then
            printf '%s\n' "$warnings" >&2
            say "$target: built with warnings ($(($(date +%s) - t0)) s)"
            status=1
        else
            say "$target: built ($(($(date +%s) - t0)) s)"
        fi
    else
        grep -E '^/pkg/.*error:|error: compile command failed|While verifying|for '\''' "$log" | sort -u | head -20 >&2 || true
        say "$target: FAILED ($(($(date +%s) - t0)) s); log: $log"
        status=1
    fi
done
[ $status -eq 0 ] && say "every library product builds with Swift 6.0.3 ($CONFIGURATION)"
exit $status
