#!/usr/bin/env bash
# Builds the IdentityFlow DocC catalog (Sources/IdentityFlow/IdentityFlow.docc) with the
# toolchain's own `docc`, no plugin: the compiler's symbol graph of the IdentityFlow module
# (public symbols; @_spi ones are left out), then `docc convert --warnings-as-errors`. Any
# warning (a broken ``Symbol`` or <doc:Article> link, a missing image, a malformed directive, a
# doc comment naming a parameter the symbol lacks) fails the run.
#
#   scripts/build-docs.sh            # writes .build/docs (a static site: serve it, or open its index.html)
#   DOCS_OUTPUT=dir scripts/build-docs.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# docc ships beside swift in the toolchain (no xcrun on Linux).
swift_path=$(command -v swift)
docc="$(dirname "$(readlink -f "$swift_path")")/docc"
[ -x "$docc" ] || docc=$(command -v docc || true)
if [ -z "$docc" ] || [ ! -x "$docc" ]; then echo "build-docs: no docc next to $swift_path or on PATH" >&2; exit 1; fi

output="${DOCS_OUTPUT:-.build/docs}"
graphs=$(mktemp -d)
stamp=$(mktemp)
trap 'rm -rf "$graphs" "$stamp"' EXIT

# The symbol graphs of the debug build (the one `swift test` reuses). The command also tries the
# test modules, which have no symbol graph and make it exit non-zero: what counts is that it wrote
# IdentityFlow's graph during this run.
log=$(swift package dump-symbol-graph --minimum-access-level public 2>&1) || true
source_dir=$(ls -td .build/*/symbolgraph 2>/dev/null | head -n 1)
if [ -z "$source_dir" ] || [ ! "$source_dir/IdentityFlow.symbols.json" -nt "$stamp" ]; then
    echo "$log" >&2
    echo "build-docs: no fresh IdentityFlow symbol graph under .build" >&2
    exit 1
fi
# IdentityFlow.symbols.json and its extension graphs (IdentityFlow@Foundation.symbols.json, ...).
cp "$source_dir"/IdentityFlow.symbols.json "$graphs"/
find "$source_dir" -maxdepth 1 -name 'IdentityFlow@*.symbols.json' -exec cp {} "$graphs"/ \;

rm -rf "$output"
"$docc" convert Sources/IdentityFlow/IdentityFlow.docc \
    --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name IdentityFlow \
    --fallback-bundle-identifier com.example.IdentityFlow \
    --warnings-as-errors \
    --enable-parameters-and-returns-validation \
    --transform-for-static-hosting \
    --output-path "$output"
echo "build-docs: wrote $output"
