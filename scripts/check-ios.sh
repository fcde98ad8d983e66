#!/usr/bin/env bash
# The Apple check: compiles every library target (Statechart, CIdentityFlowCrypto,
# CIdentityFlowPinnedTLS, IdentityFlow, IdentityFlowTesting) and the example app (Examples/) for
# arm64-apple-ios16.0 against an iPhoneOS SDK, with availability checking on. Any error or warning
# fails it. Object files only: nothing is linked or run.
#
#   scripts/check-ios.sh                  on a Mac: Xcode's SDK (xcrun --sdk iphoneos --show-sdk-path)
#   scripts/check-ios.sh --sdk PATH       on Linux: prepares PATH once into the cache, then compiles.
#                                         PATH: an iPhoneOS16.5.sdk folder, or the git directory of
#                                         a copy of the public repository theos/sdks
#   scripts/check-ios.sh                  on Linux, later: the prepared SDK in the cache
#   scripts/check-ios.sh --if-prepared    the same, but without a prepared SDK it prints one line
#                                         and succeeds (what .ci/run calls)
#
# The cache, outside the repository (Apple's SDK files are never committed):
# IDENTITYFLOW_IOS_CACHE, by default ${XDG_CACHE_HOME:-$HOME/.cache}/identityflow/ios-sdk. On Linux
# it holds the SDK prepared by scripts/ios-sdk/prepare_sdk.py (what it adds, and why, is written
# there), a resource directory, and the module cache (the first compile turns the SDK's Swift
# interfaces into modules: minutes; later ones reuse them).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${IDENTITYFLOW_IOS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/identityflow/ios-sdk}"
target="arm64-apple-ios16.0"
source_sdk=""
if_prepared=false
while [ $# -gt 0 ]; do
    case "$1" in
        --sdk) source_sdk="$2"; shift 2 ;;
        --if-prepared) if_prepared=true; shift ;;
        *) echo "check-ios: unknown argument $1 (see the header of $0)" >&2; exit 2 ;;
    esac
done

if [ "$(uname -s)" = Darwin ]; then
    sdk="${source_sdk:-$(xcrun --sdk iphoneos --show-sdk-path)}"
    swiftc=(xcrun --sdk iphoneos swiftc)
    clang=(xcrun --sdk iphoneos clang)
    resource_flags=()
else
    prepare="$root/scripts/ios-sdk/prepare_sdk.py"
    if [ -n "$source_sdk" ]; then
        python3 "$prepare" "$source_sdk" "$cache"
    fi
    if [ "$(cat "$cache/prepared" 2>/dev/null)" != "$(python3 "$prepare" --version)" ]; then
        if $if_prepared; then
            echo "check-ios: skipped, no prepared iPhoneOS SDK in $cache (scripts/check-ios.sh --sdk PATH prepares one)"
            exit 0
        fi
        echo "check-ios: no prepared iPhoneOS SDK in $cache; run scripts/check-ios.sh --sdk PATH once" >&2
        exit 2
    fi
    sdk="$cache/iPhoneOS16.5.sdk"
    # A resource directory with the toolchain's shims and clang headers but not its Linux module
    # maps (dispatch, os, Block, CoreFoundation would shadow the SDK's), and the Darwin API notes.
    toolchain_lib="$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")/lib/swift"
    resource="$cache/resource-dir"
    mkdir -p "$resource/apinotes"
    ln -sfn "$toolchain_lib/shims" "$resource/shims"
    ln -sfn "$toolchain_lib/clang" "$resource/clang"
    cp "$toolchain_lib"/apinotes/*.apinotes "$cache"/apinotes/*.apinotes "$resource/apinotes/"
    swiftc=(swiftc)
    clang=(clang)
    resource_flags=(-resource-dir "$resource")
fi

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
mkdir -p "$cache/module-cache"
status=0

# Prints a target's result; any error or warning fails the check.
report() {
    local name="$1" log="$2" rc="$3"
    local errors warnings
    errors="$(grep -cE '(^|: )error:' "$log" || true)"
    warnings="$(grep -c ': warning:' "$log" || true)"
    echo "check-ios: $name: $errors errors, $warnings warnings"
    if [ "$rc" -ne 0 ] || [ "$errors" -ne 0 ] || [ "$warnings" -ne 0 ]; then
        grep -E '(^|: )(error|warning):' "$log" | sort -u || cat "$log"
        status=1
    fi
}

# The C targets, and a module map for each (as SwiftPM writes one for an include/ folder).
for module in CIdentityFlowCrypto CIdentityFlowPinnedTLS; do
    log="$out/$module.log"
    rc=0
    for file in "$root/Sources/$module"/*.c; do
        "${clang[@]}" -target "$target" -isysroot "$sdk" -I "$root/Sources/$module/include" -Wall -Wextra -O0 \
            -c "$file" -o "$out/$module-$(basename "$file" .c).o" >>"$log" 2>&1 || rc=1
    done
    report "$module" "$log" "$rc"
    mkdir -p "$out/maps/$module"
    printf 'module %s {\n    umbrella header "%s"\n    export *\n}\n' "$module" "$root/Sources/$module/include/$module.h" \
        >"$out/maps/$module/module.modulemap"
done

# The Swift targets in dependency order, each one whole-module compile as SwiftPM's release build
# does; then the example app against them.
swift_flags=(
    -target "$target" -sdk "$sdk" ${resource_flags[@]+"${resource_flags[@]}"} -module-cache-path "$cache/module-cache"
    -swift-version 6 -package-name identityflow -D SWIFT_PACKAGE -parse-as-library -wmo -Onone -I "$out"
    -Xcc "-fmodule-map-file=$out/maps/CIdentityFlowCrypto/module.modulemap"
    -Xcc "-fmodule-map-file=$out/maps/CIdentityFlowPinnedTLS/module.modulemap"
)
compile_swift() {
    local name="$1" folder="$2"
    local log="$out/$name.log" rc=0
    local files=()
    while IFS= read -r file; do files+=("$file"); done < <(find "$folder" -name '*.swift' | sort)
    "${swiftc[@]}" "${swift_flags[@]}" -module-name "$name" -emit-module -emit-module-path "$out/$name.swiftmodule" \
        -c -o "$out/$name.o" "${files[@]}" >"$log" 2>&1 || rc=$?
    report "$name (${#files[@]} files)" "$log" "$rc"
}
compile_swift Statechart "$root/Sources/Statechart"
compile_swift IdentityFlow "$root/Sources/IdentityFlow"
compile_swift IdentityFlowTesting "$root/Sources/IdentityFlowTesting"
compile_swift IdentityFlowExample "$root/Examples/IdentityFlowExample"

if [ "$status" -eq 0 ]; then
    echo "check-ios: every target compiled for $target against $sdk with 0 errors and 0 warnings"
fi
exit "$status"
