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

# ---- Host face (issue 27 item 3): integrator-only symbols left in the host product, and the
# ---- entry points per flow. The integrator API (IdentityService, its wire models,
# ---- HTTPIdentityService) sits behind @_spi(Integrator), which keeps it out of the public graph.
if [ "${1:-}" != "--list" ]; then
python3 - "$graph" <<'PY'
import json, re, sys, collections
symbols = json.load(open(sys.argv[1]))["symbols"]
integrator_types = {
    "IdentityService", "HTTPIdentityService", "AuthorizationRequest", "CredentialsOutcome", "CustomRegistrationAnswer",
    "MobileAuthLookup", "MobileAuthAnswer", "MobileAuthVerdict", "PartialRegistrationOutcome", "PartialRegistrationRefusal",
    "PinEnrolment", "PinEnrolmentReceipt", "PinKeyAuthorization", "PinLoginChallenge", "PinVerification",
}
def mentions_integrator_type(symbol):
    fragments = symbol.get("declarationFragments", [])
    return any(f.get("kind") == "typeIdentifier" and f.get("spelling") in integrator_types for f in fragments)
integrator = [s for s in symbols if s["pathComponents"][0] in integrator_types or mentions_integrator_type(s)]
print("integrator-only symbols in the host product:", len(integrator))
for s in sorted(integrator, key=lambda s: s["pathComponents"])[:20]:
    print("  ", ".".join(s["pathComponents"]))
# Public methods and initialisers of UserClient, grouped by the flow folder that declares them.
flows = collections.defaultdict(collections.Counter)
for s in symbols:
    path = s["pathComponents"]
    if len(path) != 2 or path[0] != "UserClient" or s["kind"]["identifier"] not in ("swift.method", "swift.init"):
        continue
    uri = s.get("location", {}).get("uri", "")
    match = re.search(r"/Sources/IdentityFlow/([^/]+)/", uri)
    folder = match.group(1) if match else "?"
    flows[folder][path[1].split("(")[0]] += 1
print("UserClient entry points per flow (methods by base name; one request kind per base name):")
worst = 0
for folder in sorted(flows):
    counts = flows[folder]
    worst = max(worst, max(counts.values()))
    print(f"   {folder}: {sum(counts.values())} ({', '.join(f'{name} x{n}' for name, n in sorted(counts.items()))})")
print("most entry points of one request kind:", worst)
PY
fi
