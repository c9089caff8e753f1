#!/usr/bin/env bash
# The test suite under the sanitizers, run the same way every time. One release build per sanitizer (its own scratch
# directory, .build/sanitize-<name>), then two passes over it:
#
#   generated  the default kernels: generated AVX2/FMA (and AVX-512) machine code where the CPU has AVX2 + FMA, with
#              PUREVISION_REQUIRE_GENERATED_CODE=1 so the generated-code suites run rather than skip;
#   swift      PUREVISION_DISABLE_GENERATED_CODE=1 (HostCPU.disabledByEnvironment): every kernel, model and task runs
#              the portable Swift kernels, the path Apple platforms and arm64 take.
#
# Sanitizers (default: all three):
#   address    AddressSanitizer + LeakSanitizer (`--sanitize=address`; the runtime ships with the Swift toolchain,
#              leak checking is part of it): the whole suite, both passes. CLI tests' child processes are
#              instrumented too.
#   undefined  Swift's toolchain refuses `-sanitize=undefined` for Linux targets, so this pass is: clang's
#              UndefinedBehaviorSanitizer on the package's C code (`-Xcc -fsanitize=undefined`, the toolchain's
#              ubsan runtime linked in) and, for the Swift code, the standard library's debug preconditions kept on
#              in the optimized build (`-assert-config Debug`): index bounds of Unsafe(Mutable)BufferPointer and
#              UnsafeRaw(Buffer)Pointer, alignment of typed loads and stores, counts passed to pointer
#              initialisation, overlapping copies — what UBSan checks in C, which release Swift does not check.
#              (Integer overflow, array bounds and force-unwraps trap in every Swift build.) Whole suite, both passes.
#   thread     ThreadSanitizer (`--sanitize=thread`), both passes, on the suites that start threads (TSAN_SUITES
#              below: the thread pool, every kernel and engine suite run with several threads, the tasks in
#              live-stream mode, the shared pool, the 8-task stress, the CLI's `--jobs` and batch mode).
#
# What no sanitizer sees: the generated x86-64 machine code itself. Its loads and stores are not instrumented, so a
# read or write past a buffer inside a generated kernel, or a race between two of them, is invisible to ASan and TSan
# (ASan notices only if such a write later breaks something it does check). The generated-code suites still run under
# every sanitizer, so the Swift around that code (weight packing, planning, buffers, the pool) is checked; the bounds
# of the generated code itself are checked without a sanitizer by the guard-page tests (`GuardedFloats` in
# Conv2DRowTailTests and DepthwiseConv2DMachineCodeTests: buffers flush against inaccessible pages) and its results by
# the twin tests against the Swift kernels. The `swift` pass runs every model and task through the instrumented Swift
# kernels instead.
#
# Findings: every report goes to a file (log_path) under .build/sanitize-<name>/reports/<pass>/, child processes'
# included, and each report's SUMMARY line counts as one finding; a pass fails on any finding or failed test, and
# prints the reports. tools/sanitize-leaks.supp lists the only suppressions (two LeakSanitizer misreads outside the
# package's code, each explained there). Test output: .build/sanitize-<name>/reports/<pass>.log.
#
# Usage: tools/sanitize.sh [-h] [--skip-build] [--ci] [--pass generated|swift] [--filter REGEX] [SANITIZER ...]
#   --skip-build   reuse the sanitizer's existing build (iterate on one suite with --filter)
#   --ci           what .ci/run runs: the generated pass only (the kernels CI's own test run uses), whole suite
#                  (times in tools/README.md)
#   --pass P       run only that pass (default both)
#   --filter R     only tests matching R (passed to `swift test --filter`; replaces TSAN_SUITES for thread)
# Exit status: 0 when every pass ran its tests without a failure or a finding.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }

# The suites that start threads (regular expression over test identifiers).
TSAN_SUITES='ThreadPoolTests|SharedThreadPoolTests|TaskRunnerTests|TaskRunnerThreadTests|LiveStreamStressTests'
TSAN_SUITES+='|ManyInstancesStressTests|TaskAPITests|ContractTests|CompatTests|BatchModeTests|CLICommandTests'
TSAN_SUITES+='|Conv2DTests|Conv2DMachineCodeTests|Conv2DRowTailTests|DepthwiseConv2D|GEMMTests|Quantized'
TSAN_SUITES+='|TransposeConv|ModelParityTests|BinaryElementwiseTests|UnaryTests|SoftmaxTests|PoolingTests'
TSAN_SUITES+='|ResizeBilinearTests|PReLUTests|DequantizeTests|XNNPACKAddKernelTests|EmptyTensorTests'
TSAN_SUITES+='|FuzzRegressionTests|ImageToTensorConverterTests|NonMaxSuppressionTests|DetectionDecoderTests'

skip_build=0
ci=0
pass_given=0
passes=(generated swift)
filter=''
sanitizers=()
while [ $# -gt 0 ]; do
    case "$1" in
    -h | --help) usage; exit 0 ;;
    --skip-build) skip_build=1 ;;
    --ci) ci=1 ;;
    --pass) shift; passes=("$1"); pass_given=1 ;;
    --filter) shift; filter="$1" ;;
    address | undefined | thread) sanitizers+=("$1") ;;
    *) echo "sanitize.sh: unknown argument '$1' (-h for help)" >&2; exit 2 ;;
    esac
    shift
done
[ ${#sanitizers[@]} -gt 0 ] || sanitizers=(address undefined thread)
[ "$ci" = 1 ] && [ "$pass_given" = 0 ] && passes=(generated)

has_generated_code=0
if [ "$(uname -m)" = x86_64 ] && grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw fma /proc/cpuinfo 2>/dev/null; then
    has_generated_code=1
fi

# The toolchain's own clang runtime libraries (UBSan's is linked in by hand: SwiftPM will not ask for it).
clang_runtime=$(cd "$(dirname "$(command -v swift)")/../lib/swift/clang/lib/linux" && pwd -P)

# The build flags of one sanitizer.
build_flags() {
    case "$1" in
    address) echo "--sanitize=address" ;;
    thread) echo "--sanitize=thread" ;;
    undefined)
        echo "-Xcc -fsanitize=undefined -Xswiftc -assert-config -Xswiftc Debug" \
            "-Xlinker $clang_runtime/libclang_rt.ubsan_standalone-$(uname -m).a"
        ;;
    esac
}

failed=0
summary=()
for sanitizer in "${sanitizers[@]}"; do
    scratch=".build/sanitize-$sanitizer"
    # shellcheck disable=SC2207
    flags=($(build_flags "$sanitizer"))
    if [ "$skip_build" = 0 ]; then
        echo "== build ($sanitizer): swift build -c release --build-tests ${flags[*]}"
        start=$SECONDS
        swift build -c release --build-tests --scratch-path "$scratch" "${flags[@]}"
        summary+=("$sanitizer build: $((SECONDS - start)) s")
    fi
    run_filter="$filter"
    [ "$sanitizer" = thread ] && [ -z "$run_filter" ] && run_filter="$TSAN_SUITES"
    for pass in "${passes[@]}"; do
        reports="$scratch/reports/$pass"
        rm -rf "$reports"
        mkdir -p "$reports"
        log="$scratch/reports/$pass.log"
        # Only the pass's own sanitizer gets options: the runtimes share flags such as log_path.
        case "$sanitizer" in
        address)
            env=(ASAN_OPTIONS="detect_leaks=1:log_path=$PWD/$reports/asan"
                LSAN_OPTIONS="suppressions=$PWD/tools/sanitize-leaks.supp:print_suppressions=0")
            ;;
        undefined) env=(UBSAN_OPTIONS="print_stacktrace=1:log_path=$PWD/$reports/ubsan") ;;
        thread) env=(TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1:log_path=$PWD/$reports/tsan") ;;
        esac
        if [ "$pass" = swift ]; then
            env+=(PUREVISION_DISABLE_GENERATED_CODE=1 PUREVISION_REQUIRE_GENERATED_CODE=0)
        else
            env+=(PUREVISION_DISABLE_GENERATED_CODE=0 PUREVISION_REQUIRE_GENERATED_CODE=$has_generated_code)
        fi
        args=(-c release --skip-build --scratch-path "$scratch" "${flags[@]}")
        [ -n "$run_filter" ] && args+=(--filter "$run_filter")
        echo "== test ($sanitizer, $pass pass)${run_filter:+ --filter '$run_filter'} -> $log"
        start=$SECONDS
        status=0
        env "${env[@]}" swift test "${args[@]}" > "$log" 2>&1 || status=$?
        seconds=$((SECONDS - start))
        tests=$(grep -Eo 'Test run with [0-9]+ tests?' "$log" | tail -1 | grep -Eo '[0-9]+' || echo "?")
        # Every report, of whichever sanitizer, ends with one SUMMARY line.
        findings=$(cat "$reports"/* 2>/dev/null | grep -c '^SUMMARY: ' || true)
        result="ok"
        if [ "$status" != 0 ] || [ "$findings" != 0 ]; then
            result="FAILED ($findings sanitizer finding(s); swift test exit status $status)"
            failed=1
            grep -E '✘|error:|Fatal error' "$log" | head -40 || true
            for report in "$reports"/*; do
                [ -f "$report" ] || continue
                echo "---- $report"
                head -60 "$report"
            done
        fi
        summary+=("$sanitizer $pass: $tests tests, $seconds s, $findings sanitizer findings: $result")
    done
done

echo "== summary"
printf '%s\n' "${summary[@]}"
exit "$failed"
