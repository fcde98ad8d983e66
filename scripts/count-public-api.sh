#!/usr/bin/env bash
# Prints how many public declarations the IdentityFlow module has: every symbol of its public
# symbol graph (types, members, enum cases, protocol requirements and the default implementations
# hosts can call), members inherited through default implementations left out.
# Usage: scripts/count-public-api.sh [--list]   (--list prints them, one per line)
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=$(mktemp)
trap 'rm -f "$stamp"' EXIT
# The command also tries the test modules, which have no symbol graph and make it exit non-zero:
# what counts is that it wrote IdentityFlow's graph during this run.
log=$(swift package dump-symbol-graph --minimum-access-level public --skip-synthesized-members 2>&1) || true
graph=$(ls -t .build/*/symbolgraph/IdentityFlow.symbols.json 2>/dev/null | head -n 1)
if [ -z "$graph" ] || [ ! "$graph" -nt "$stamp" ]; then echo "$log" >&2; echo "no fresh IdentityFlow symbol graph under .build" >&2; exit 1; fi
python3 - "$graph" "${1:-}" <<'PY'
import json, sys
symbols = json.load(open(sys.argv[1]))["symbols"]
if sys.argv[2] == "--list":
    for s in sorted(symbols, key=lambda s: s["pathComponents"]):
        print(".".join(s["pathComponents"]), "(" + s["kind"]["displayName"].lower() + ")")
print(len(symbols))
PY
