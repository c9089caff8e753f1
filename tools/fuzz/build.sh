#!/usr/bin/env bash
# Builds the libFuzzer targets in tools/fuzz/*.swift (not SwiftPM products: `swift build` / `swift test` never see
# them). Each needed module of Sources/ is compiled once with swiftc -sanitize=fuzzer,address (whole-module, -O,
# so preconditions and bounds checks still trap), then each entry point is linked against the modules it imports.
#
#   tools/fuzz/build.sh [TARGET ...]      # default: every target; binaries in .build/fuzz/bin/
#
# Run from the repository root. Needs the same Debian packages as the package (libopenblas-dev, libpng-dev,
# libjpeg-dev).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=.build/fuzz
mkdir -p "$OUT/modules" "$OUT/obj" "$OUT/bin"
SAN=(-sanitize=fuzzer,address)
SWIFTFLAGS=(-O -swift-version 6 -package-name purevision -parse-as-library -I "$OUT/modules"
    -I Sources/CPureVisionPNG -I Sources/CPureVisionJPEG -I Sources/CPureVisionOpenBLAS -I "$OUT/cjpegsupport"
    -I "$OUT/ctargetfeatures")

# CPureVisionTargetFeatures: a header of macros that PureVisionKernels imports (its C file compiles to nothing).
build_ctargetfeatures() {
    mkdir -p "$OUT/ctargetfeatures"
    cat > "$OUT/ctargetfeatures/module.modulemap" <<MAP
module CPureVisionTargetFeatures {
    header "$PWD/Sources/CPureVisionTargetFeatures/include/CPureVisionTargetFeatures.h"
    export *
}
MAP
}

# CPureVisionJPEGSupport: the C target with code; a module map like SwiftPM's generated one.
build_cjpegsupport() {
    mkdir -p "$OUT/cjpegsupport"
    cat > "$OUT/cjpegsupport/module.modulemap" <<MAP
module CPureVisionJPEGSupport {
    header "$PWD/Sources/CPureVisionJPEGSupport/include/jpeg_support.h"
    export *
}
MAP
    local obj="$OUT/obj/CPureVisionJPEGSupport.o"
    if [[ ! -f $obj || Sources/CPureVisionJPEGSupport/jpeg_support.c -nt $obj ]]; then
        echo "compiling CPureVisionJPEGSupport"
        clang -O2 -g -fsanitize=address,fuzzer-no-link -ISources/CPureVisionJPEGSupport/include \
            -c Sources/CPureVisionJPEGSupport/jpeg_support.c -o "$obj"
    fi
}

# build_module NAME: Sources/NAME/**/*.swift -> $OUT/modules/NAME.swiftmodule + $OUT/obj/NAME.o (when stale).
build_module() {
    local name=$1 obj="$OUT/obj/$1.o"
    local sources
    mapfile -t sources < <(find "Sources/$name" -name '*.swift' | sort)
    local stale=0
    [[ -f $obj ]] || stale=1
    for s in "${sources[@]}"; do [[ $s -nt $obj ]] && stale=1; done
    for dep in "${@:2}"; do [[ $OUT/obj/$dep.o -nt $obj ]] && stale=1; done
    if (( stale )); then
        echo "compiling $name (${#sources[@]} files)"
        swiftc "${SWIFTFLAGS[@]}" "${SAN[@]}" -module-name "$name" -wmo -num-threads 0 \
            -emit-module -emit-module-path "$OUT/modules/$name.swiftmodule" -c "${sources[@]}" -o "$obj"
    fi
}

# target -> the modules it links (in dependency order) and the system libraries.
declare -A MODULES=(
    [tflite_model]="PureVisionCore PureVisionKernels PureVisionTFLite PureVisionEngine"
    [model_bundle]="PureVisionCore PureVisionTFLite"
    [nested_bundle]="PureVisionCore PureVisionTFLite"
    [png]="PureVisionCore PureVisionImage"
    [jpeg]="PureVisionCore PureVisionImage"
    [npy]="PureVisionCore"
    [exif]="PureVisionCore PureVisionImage"
    [yuv]="PureVisionCore PureVisionKernels PureVisionTFLite PureVisionEngine PureVisionImage PureVision"
    [y4m]="PureVisionCore PureVisionImage"
    [geometry_metadata]="PureVisionCore PureVisionTFLite"
)
declare -A LIBS=(
    [tflite_model]="-lopenblas"
    [model_bundle]=""
    [nested_bundle]=""
    [png]="-lpng -ljpeg"
    [jpeg]="-lpng -ljpeg"
    [npy]=""
    [exif]="-lpng -ljpeg"
    [yuv]="-lopenblas -lpng -ljpeg"
    [y4m]="-lpng -ljpeg"
    [geometry_metadata]=""
)

targets=("$@")
(( ${#targets[@]} )) || targets=(npy png jpeg exif yuv model_bundle tflite_model y4m geometry_metadata nested_bundle)
build_cjpegsupport
build_ctargetfeatures
for target in "${targets[@]}"; do
    [[ -n ${MODULES[$target]+x} ]] || { echo "unknown target $target" >&2; exit 2; }
    deps=()
    for m in ${MODULES[$target]}; do build_module "$m" "${deps[@]}"; deps+=("$m"); done
    objs=()
    for m in ${MODULES[$target]}; do objs+=("$OUT/obj/$m.o"); done
    [[ ${MODULES[$target]} == *PureVisionImage* ]] && objs+=("$OUT/obj/CPureVisionJPEGSupport.o")
    echo "linking $OUT/bin/fuzz_$target"
    # shellcheck disable=SC2086
    swiftc "${SWIFTFLAGS[@]}" "${SAN[@]}" -module-name "Fuzz_$target" "tools/fuzz/$target.swift" "${objs[@]}" \
        ${LIBS[$target]} -o "$OUT/bin/fuzz_$target" 2> >(grep -v "Cannot export local symbol '__asan" >&2)
done
