#!/usr/bin/env bash
# Reports public-API breaks of the two products, IdentityFlow and IdentityFlowTesting (their
# @_spi(Integrator) API included), against the baseline recorded in api/ (gzipped JSON): the toolchain's
# swift-api-digester dumps the API of the debug build's modules (-dump-sdk) and compares it with
# the baseline (-diagnose-sdk). A removed or changed declaration, a new requirement of a public
# protocol, a new case of a public enum: each is a break, listed, and the script fails. Additions
# are not breaks.
#
#   scripts/check-api.sh            # after `swift build`: compare, fail on a break
#   scripts/check-api.sh --record   # a deliberate break: record the new baseline (and describe it in CHANGELOG.md)
set -euo pipefail
cd "$(dirname "$0")/.."

swift_path=$(command -v swift)
digester="$(dirname "$(readlink -f "$swift_path")")/swift-api-digester"
[ -x "$digester" ] || digester=$(command -v swift-api-digester || true)
if [ -z "$digester" ] || [ ! -x "$digester" ]; then echo "check-api: no swift-api-digester next to $swift_path" >&2; exit 1; fi

build=$(swift build --show-bin-path)
target=$(basename "$(dirname "$build")")
if [ ! -d "$build/Modules" ]; then echo "check-api: no modules in $build; run swift build first" >&2; exit 1; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

dump() {
    "$digester" -dump-sdk -module "$1" -o "$2" -target "$target" \
        -I "$build/Modules" -I "$build/CIdentityFlowCrypto.build" -I "$build/CIdentityFlowPinnedTLS.build" \
        -avoid-location -avoid-tool-args -abort-on-module-fail
}

status=0
for module in IdentityFlow IdentityFlowTesting; do
    dump "$module" "$work/$module.json"
    if [ "${1:-}" = "--record" ]; then
        mkdir -p api
        gzip -9 -n -c "$work/$module.json" >"api/$module.json.gz"
        echo "check-api: recorded api/$module.json.gz"
        continue
    fi
    gunzip -c "api/$module.json.gz" >"$work/$module.baseline.json"
    "$digester" -diagnose-sdk -input-paths "$work/$module.baseline.json" -input-paths "$work/$module.json" \
        -o "$work/$module.breaks" -disable-fail-on-error >/dev/null 2>&1
    # The report has a header line per section (/* Generic Signature Changes */, ...); any other
    # non-empty line is a break.
    breaks=$(grep -v '^/\*.*\*/$' "$work/$module.breaks" | grep -v '^[[:space:]]*$' || true)
    if [ -n "$breaks" ]; then
        echo "check-api: $module breaks its recorded API (api/$module.json.gz):"
        printf '%s\n' "$breaks" | sed 's/^/  /'
        status=1
    else
        echo "check-api: $module keeps its recorded API"
    fi
done
if [ "$status" -ne 0 ]; then
    echo "check-api: if the break is deliberate, describe it in CHANGELOG.md and run scripts/check-api.sh --record" >&2
fi
exit "$status"
