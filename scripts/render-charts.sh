#!/bin/sh
# Renders StateCharts/<Name>.svg for every machine: `identityflow charts --format dot` writes the
# Graphviz sources into a temporary directory, `dot -Tsvg` draws them. Each SVG is copied into the
# DocC catalog's Resources too, where the flows' articles show it (ChartFilesTests checks that the
# copies are the committed SVGs). Commit both.
# Extra arguments go to `swift run` (for example --scratch-path .build-x).
set -eu

if ! command -v dot >/dev/null 2>&1; then
    echo "render-charts: Graphviz's 'dot' is not installed, so no SVG was rendered." >&2
    echo "  Debian/Ubuntu: sudo apt-get install graphviz    macOS: brew install graphviz" >&2
    exit 1
fi

cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build "$@" --product identityflow >&2
swift run "$@" --skip-build identityflow charts --format dot --output "$work/dot" >/dev/null

catalog=Sources/IdentityFlow/IdentityFlow.docc/Resources
mkdir -p StateCharts "$catalog"
for source in "$work"/dot/*.dot; do
    name=$(basename "$source" .dot)
    dot -Tsvg "$source" -o "StateCharts/$name.svg"
    cp "StateCharts/$name.svg" "$catalog/$name.svg"
    echo "rendered StateCharts/$name.svg (and $catalog/$name.svg)"
done
