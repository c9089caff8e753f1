#!/usr/bin/env bash
# Builds the DocC site of the PureVision module with the toolchain's own `docc`, from symbol graphs extracted from
# the release build (no package plugin: the package has no dependencies). Fails on any DocC warning, broken symbol
# links included, and on any undocumented public symbol of the documented modules.
#
#   tools/docs.sh [OUTPUT_DIR]        # default .build/docs/site; open OUTPUT_DIR/documentation/purevision/
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-.build/docs/site}
GRAPHS=.build/docs/symbol-graphs
MODULES=(PureVision PureVisionImage)

swift build -c release --target PureVision
BIN=$(swift build -c release --show-bin-path)
TRIPLE=$(swiftc -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])' 2>/dev/null \
    || echo "$(uname -m)-unknown-linux-gnu")

rm -rf "$GRAPHS" "$OUT"
mkdir -p "$GRAPHS"
for module in "${MODULES[@]}"; do
    swift symbolgraph-extract -module-name "$module" -target "$TRIPLE" -minimum-access-level public \
        -I "$BIN/Modules" -I Sources/CPureVisionPNG -I Sources/CPureVisionJPEG -I Sources/CPureVisionOpenBLAS \
        -Xcc "-fmodule-map-file=$BIN/CPureVisionJPEGSupport.build/module.modulemap" \
        -Xcc "-fmodule-map-file=Sources/CPureVisionTargetFeatures/include/module.modulemap" \
        -output-dir "$GRAPHS"
done

LOG=.build/docs/docc.log
docc convert Sources/PureVision/PureVision.docc \
    --additional-symbol-graph-dir "$GRAPHS" \
    --fallback-display-name PureVision --fallback-bundle-identifier org.purevision.PureVision \
    --transform-for-static-hosting --output-path "$OUT" \
    --experimental-documentation-coverage --coverage-summary-level brief \
    --warnings-as-errors 2>&1 | tee "$LOG"
if grep -q "warning:" "$LOG"; then
    echo "docs.sh: DocC reported warnings" >&2
    exit 1
fi
# Every public symbol carries documentation (compiler-synthesized members aside).
python3 tools/doc_coverage.py "$GRAPHS"
echo "docs.sh: site in $OUT"
