#!/usr/bin/env bash
# iOS type-check from Linux: the library modules, the example programs and the iOS guide code, for
# arm64-apple-ios18.0, with this machine's swiftc against a public iOS 17.0 SDK. Run from the repository root.
#
#   tools/platforms/ios.sh [-h]
#
# 1. The eight library modules, by the shared harness `ios-typecheck/typecheck.sh` (in $HARNESS, default
#    ../shared/tools/ios-typecheck; its README says what it stands in for: the SDK is iOS 17.0, so the iOS 18
#    `Synchronization` module is a stand-in and a few Swift 6.0 stdlib signatures are backported). Every function
#    body is type-checked, and SIL diagnostics run on each module without type errors.
# 2. Every example program (Examples/*/Sources/*), as an app target importing those modules.
# 3. The guides' iOS-only code (tools/platforms/ios-guides/*.swift): UIImage, CMSampleBuffer and CVPixelBuffer
#    inputs, delegates and completion handlers, as MediaPipe's and ML Kit's iOS guides write them.
# 4. The C targets (CPureVisionAccelerate, built only on Apple platforms, and CPureVisionTargetFeatures), with clang
#    against the SDK's headers.
# What no part can check: linking, code generation, the run time, the iOS 18 SDK's own changes (see the harness).
#
# Exit status: 0 when every error left is a known harness artifact (tagged by the harness), the library modules and
# the examples give no warning and parts 2–4 have no error; 1 otherwise; 2 when the harness or its SDK is missing.
# Warnings in the guide files (the guides' own code, kept as written) are printed and counted, not failed on.
# Environment: HARNESS, IOSCK_WORK (scratch, default /tmp/iosck), SWIFTC.
set -uo pipefail
case "${1:-}" in
-h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
"") ;;
*) echo "ios: unknown option $1 (see --help)" >&2; exit 2 ;;
esac
[ -f Package.swift ] && [ -d Sources/PureVisionCore ] || { echo "ios: run from the repository root" >&2; exit 2; }
HARNESS=${HARNESS:-../shared/tools/ios-typecheck}
[ -x "$HARNESS/typecheck.sh" ] || [ -f "$HARNESS/typecheck.sh" ] || {
    echo "ios: no harness at $HARNESS/typecheck.sh (set HARNESS)" >&2
    exit 2
}
export IOSCK_WORK=${IOSCK_WORK:-/tmp/iosck}
SWIFTC=${SWIFTC:-swiftc}
TARGET=arm64-apple-ios18.0
say() { printf 'ios: %s\n' "$*" >&2; }

# --- 1. library modules -------------------------------------------------------------------------------------------
# PureVisionKernels imports the C targets CPureVisionAccelerate (on Apple platforms) and CPureVisionTargetFeatures.
# The harness passes its module folder to the compiler with -I, and Clang reads a module map found there.
mkdir -p "$IOSCK_WORK/modules/$TARGET"
for module in CPureVisionAccelerate CPureVisionTargetFeatures; do
    printf 'module %s {\n    header "%s"\n    export *\n}\n' "$module" "$PWD/Sources/$module/include/$module.h"
done >"$IOSCK_WORK/modules/$TARGET/module.modulemap"
start=$(date +%s)
summary=$(IOS_TARGET=$TARGET bash "$HARNESS/typecheck.sh" 2>"$IOSCK_WORK.harness.log" | tee "$IOSCK_WORK.errors.log" | tail -1)
library_status=$?
library_warnings=$(grep -cE '^  Sources/.*: warning:' "$IOSCK_WORK.harness.log" || true)
grep -E 'warning:' "$IOSCK_WORK.harness.log" >&2 || true
grep -vE '^ios-typecheck:' "$IOSCK_WORK.errors.log" >&2 || true
say "library modules: ${summary:-no summary} ($(($(date +%s) - start)) s)"
case "$summary" in "ios-typecheck: "*) ;; *) say "the harness gave no summary; its log: $IOSCK_WORK.harness.log"; exit 2 ;; esac

# --- 2 and 3. example programs and guide code, against the modules the harness emitted -----------------------------
# The harness's own flags (typecheck.sh, "COMMON"): its resource dir, module cache and Synchronization stand-in.
SDK=${IOS_SDK:-$IOSCK_WORK/iPhoneOS17.0.sdk}
[ -d "$IOSCK_WORK/sdk-shadow/$(basename "$SDK")" ] && SDK=$IOSCK_WORK/sdk-shadow/$(basename "$SDK")
CACHE=$(ls -td "$IOSCK_WORK"/module-cache/*/ 2>/dev/null | head -1)
FLAGS=(-typecheck -target "$TARGET" -sdk "$SDK" -resource-dir "$IOSCK_WORK/resource-dir" -module-cache-path "${CACHE:-$IOSCK_WORK/module-cache/examples}"
    -swift-version 6 -DDEBUG -diagnostic-style llvm -I "$IOSCK_WORK/modules/$TARGET")
[ -d "$IOSCK_WORK/standin/$TARGET" ] && FLAGS+=(-I "$IOSCK_WORK/standin/$TARGET")
programs=0
program_errors=0
example_warnings=0
guide_warnings=0
check_program() { # check_program example|guide NAME FILE...
    local kind=$1 name=$2 log
    shift 2
    log=$IOSCK_WORK/logs/program-$name.log
    "$SWIFTC" "${FLAGS[@]}" -module-name "$name" "$@" >"$log" 2>&1
    local rc=$? errors warnings count
    errors=$(grep -E ': error: ' "$log" | sed "s|$PWD/||" | awk '!seen[$0]++')
    # swiftc names the files as it was given them (relative paths here), so every warning line of the log counts.
    warnings=$(grep -E ': warning: ' "$log" | sed "s|$PWD/||" | awk '!seen[$0]++')
    count=$(printf '%s' "$warnings" | grep -c . || true)
    if [ "$count" -gt 0 ]; then
        printf '%s\n' "$warnings" | sed 's/^/  /' >&2
        # Examples are the package's code: a warning fails the check. The guide files are the guides' own code, kept
        # as written (UIKit's main-actor rules warn on their camera callbacks): reported, not fixed.
        if [ "$kind" = example ]; then example_warnings=$((example_warnings + count)); else guide_warnings=$((guide_warnings + count)); fi
    fi
    programs=$((programs + 1))
    if [ $rc -ne 0 ] || [ -n "$errors" ]; then
        program_errors=$((program_errors + 1))
        say "$name: errors (exit $rc); log: $log"
        printf '%s\n' "${errors:-$(tail -5 "$log")}" >&2
    else
        say "$name: ok"
    fi
}
mkdir -p "$IOSCK_WORK/logs"
for dir in Examples/*/Sources/*/; do
    [ -d "$dir" ] || continue
    mapfile -t files < <(find "$dir" -name '*.swift' | LC_ALL=C sort)
    check_program example "$(basename "$dir")" "${files[@]}"
done
for file in tools/platforms/ios-guides/*.swift; do
    [ -f "$file" ] || continue
    check_program guide "$(basename "$file" .swift)" -parse-as-library "$file"
done

# --- 4. the C targets that build on Apple platforms, against the SDK's headers -----------------------------------------
c_errors=0
CLANG=$(dirname "$(readlink -f "$(command -v "$SWIFTC")")")/clang
VECLIB=$SDK/System/Library/Frameworks/Accelerate.framework/Frameworks/vecLib.framework/Headers
c_flags=(-fsyntax-only -fmodules -fmodules-cache-path="$IOSCK_WORK/clang-module-cache" -target "$TARGET" -isysroot "$SDK"
    -Wall -Wextra -Werror -DACCELERATE_NEW_LAPACK -I Sources/CPureVisionAccelerate/include
    -I Sources/CPureVisionTargetFeatures/include)
# The iOS 17.0 SDK predates vecLib/thread_api.h; the harness's stand-in declarations take its place.
[ -f "$VECLIB/thread_api.h" ] || c_flags+=(-include "$HARNESS/sdk-backports/BLASThreading.h")
for file in Sources/CPureVisionAccelerate/*.c Sources/CPureVisionTargetFeatures/*.c; do
    if "$CLANG" "${c_flags[@]}" "$file" 2>"$IOSCK_WORK/logs/c-$(basename "$file").log"; then
        say "$file: ok"
    else
        c_errors=$((c_errors + 1))
        cat "$IOSCK_WORK/logs/c-$(basename "$file").log" >&2
        say "$file: errors"
    fi
done

echo "$summary; $library_warnings warnings in the package's files; $programs programs (examples and iOS guide code), $program_errors with errors, $example_warnings warnings in the examples, $guide_warnings in the guides' own code; C targets: $c_errors with errors"
[ $library_status -eq 0 ] && [ "$library_warnings" -eq 0 ] && [ $program_errors -eq 0 ] && [ "$example_warnings" -eq 0 ] && [ $c_errors -eq 0 ]
