#!/usr/bin/env bash
# Builds the documentation site: the IdentityFlow DocC catalog (Sources/IdentityFlow/IdentityFlow.docc)
# and the test kit's (Sources/IdentityFlowTesting/IdentityFlowTesting.docc), with the toolchain's own
# `docc`, no plugin: the compiler's symbol graphs of both modules (public symbols; @_spi ones are left
# out), each `docc convert --warnings-as-errors`, then `docc merge` into one site. Any warning (a
# broken ``Symbol`` or <doc:Article> link, a missing image, a malformed directive, a doc comment
# naming a parameter the symbol lacks) fails the run. The test kit's doc comments name IdentityFlow's
# symbols in code voice, not as links: this docc resolves no link into another module's archive.
#
#   scripts/build-docs.sh            # writes .build/docs; scripts/serve-docs.sh serves it
#   DOCS_OUTPUT=dir scripts/build-docs.sh
#
# The site is a web application: opened as a file (file://) it shows a blank page. Serve it
# (scripts/serve-docs.sh); its `/` redirects to the IdentityFlow landing page.
set -euo pipefail
cd "$(dirname "$0")/.."

# docc ships beside swift in the toolchain (no xcrun on Linux).
swift_path=$(command -v swift)
docc="$(dirname "$(readlink -f "$swift_path")")/docc"
[ -x "$docc" ] || docc=$(command -v docc || true)
if [ -z "$docc" ] || [ ! -x "$docc" ]; then echo "build-docs: no docc next to $swift_path or on PATH" >&2; exit 1; fi

output="${DOCS_OUTPUT:-.build/docs}"
work=$(mktemp -d)
stamp=$(mktemp)
trap 'rm -rf "$work" "$stamp"' EXIT

# The symbol graphs of the debug build (the one `swift test` reuses). The command also tries the
# test modules, which have no symbol graph and make it exit non-zero: what counts is that it wrote
# both modules' graphs during this run.
log=$(swift package dump-symbol-graph --minimum-access-level public --emit-extension-block-symbols 2>&1) || true
source_dir=$(ls -td .build/*/symbolgraph 2>/dev/null | head -n 1)
for module in IdentityFlow IdentityFlowTesting; do
    if [ -z "$source_dir" ] || [ ! "$source_dir/$module.symbols.json" -nt "$stamp" ]; then
        echo "$log" >&2
        echo "build-docs: no fresh $module symbol graph under .build" >&2
        exit 1
    fi
    # The module's graph and its extension graphs (IdentityFlow@Foundation.symbols.json, ...).
    mkdir -p "$work/$module-graphs"
    cp "$source_dir/$module.symbols.json" "$work/$module-graphs"/
    find "$source_dir" -maxdepth 1 -name "$module@*.symbols.json" -exec cp {} "$work/$module-graphs"/ \;
done

convert() {
    local module=$1
    "$docc" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$work/$module-graphs" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "com.example.$module" \
        --warnings-as-errors \
        --enable-parameters-and-returns-validation \
        --transform-for-static-hosting \
        --output-path "$work/$module.doccarchive"
}
convert IdentityFlow
convert IdentityFlowTesting

rm -rf "$output"
"$docc" merge "$work/IdentityFlow.doccarchive" "$work/IdentityFlowTesting.doccarchive" \
    --synthesized-landing-page-name IdentityFlow --output-path "$output"

# `/` is the web application's shell, which has no page of its own there: send it to the landing page.
cat >"$output/index.html" <<'HTML'
<!doctype html>
<meta charset="utf-8">
<meta http-equiv="refresh" content="0; url=documentation/identityflow/">
<title>IdentityFlow</title>
<a href="documentation/identityflow/">IdentityFlow documentation</a>
HTML
echo "build-docs: wrote $output (a web application: it does not open as a file)"
echo "build-docs: serve it with scripts/serve-docs.sh, then open http://127.0.0.1:8000/documentation/identityflow/ (the test kit: /documentation/identityflowtesting/)"
