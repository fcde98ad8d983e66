#!/usr/bin/env bash
# Prints, from the IdentityFlow module's public symbol graph (the compiler's, so @_spi symbols are
# left out), each figure with its label:
#   - the total of public declarations: every symbol of the graph (types, members, enum cases,
#     protocol requirements and the default implementations hosts can call), members inherited
#     through default implementations left out;
#   - undocumented public symbols: those without a `///` comment (must be 0);
#   - public types not curated in a DocC Topics group: top-level types that no ``Symbol`` link
#     under a "## Topics" heading of Sources/IdentityFlow/IdentityFlow.docc names (nested types
#     are curated under their parent by DocC itself) (must be 0);
#   - integrator-only symbols in the host product: the `IdentityService` protocol with its
#     requirements and default implementations, the wire models only it uses (types no other
#     public declaration mentions, with their members), and `HTTPIdentityService`'s members that
#     witness an `IdentityService` requirement;
#   - entry points per flow: the public methods of `UserClient`, grouped by the folder of the
#     file that declares them (Registration/, Authentication/, ...).
# Usage: scripts/count-public-api.sh [--list]   (--list also prints every symbol, one per line)
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=$(mktemp)
# The command also tries the test modules, which have no symbol graph and make it exit non-zero:
# what counts is that it wrote IdentityFlow's graph during this run.
# Two graphs: the public one (what `import IdentityFlow` shows), and one with @_spi symbols too, from
# which the integrator API is recognised even once it has left the public graph.
work=$(mktemp -d)
trap 'rm -f "$stamp"; rm -rf "$work"' EXIT
fresh_graph() {
    local log graph
    log=$(swift package dump-symbol-graph --minimum-access-level public --skip-synthesized-members "$@" 2>&1) || true
    graph=$(ls -t .build/*/symbolgraph/IdentityFlow.symbols.json 2>/dev/null | head -n 1)
    if [ -z "$graph" ] || [ ! "$graph" -nt "$stamp" ]; then echo "$log" >&2; echo "no fresh IdentityFlow symbol graph under .build" >&2; exit 1; fi
    touch "$stamp"
    sleep 1  # so that the next graph is strictly newer than the stamp
    echo "$graph"
}
cp "$(fresh_graph --include-spi-symbols)" "$work/spi.json"
cp "$(fresh_graph)" "$work/public.json"
python3 - "$work/public.json" "$work/spi.json" "Sources/IdentityFlow/IdentityFlow.docc" "${1:-}" <<'PY'
import collections, json, os, re, sys

graph = json.load(open(sys.argv[1]))
symbols = graph["symbols"]
public_ids = {s["identifier"]["precise"] for s in symbols}
spi_symbols = json.load(open(sys.argv[2]))["symbols"]
catalog = sys.argv[3]
listing = sys.argv[4] == "--list"

def path(s):
    return ".".join(s["pathComponents"])

TYPE_KINDS = {"swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.actor", "swift.typealias"}
by_id = {s["identifier"]["precise"]: s for s in symbols}

if listing:
    for s in sorted(symbols, key=lambda s: s["pathComponents"]):
        print(path(s), "(" + s["kind"]["displayName"].lower() + ")")
print("public declarations (total):", len(symbols))

# Undocumented: no doc comment of its own.
undocumented = [s for s in symbols if not (s.get("docComment") or {}).get("lines")]
print("undocumented public symbols:", len(undocumented))
for s in sorted(undocumented, key=path):
    print("  undocumented:", path(s), "(" + s["kind"]["displayName"].lower() + ")")

# Curated: ``Symbol`` links inside the Topics sections of the catalog's Markdown files.
curated = set()
for root, _, files in os.walk(catalog):
    for name in files:
        if not name.endswith(".md"):
            continue
        text = open(os.path.join(root, name), encoding="utf-8").read()
        topics = re.split(r"^## Topics\s*$", text, flags=re.M)
        for section in topics[1:]:
            section = re.split(r"^## (?!#)", section, flags=re.M)[0]
            for link in re.findall(r"``([^`]+)``", section):
                curated.add(link.split("/")[0].split("-")[0])
top_types = [s for s in symbols if s["kind"]["identifier"] in TYPE_KINDS and len(s["pathComponents"]) == 1]
uncurated = sorted(path(s) for s in top_types if s["pathComponents"][0] not in curated)
print("public types not curated in a DocC Topics group:", len(uncurated), "of", len(top_types))
for name in uncurated:
    print("  not curated:", name)

# Integrator-only symbols.
def mentioned_types(s):
    ids = set()
    for fragment in s.get("declarationFragments") or []:
        if fragment.get("preciseIdentifier"):
            ids.add(fragment["preciseIdentifier"])
    for param in (s.get("functionSignature") or {}).get("parameters") or []:
        for fragment in param.get("declarationFragments") or []:
            if fragment.get("preciseIdentifier"):
                ids.add(fragment["preciseIdentifier"])
    for fragment in (s.get("functionSignature") or {}).get("returns") or []:
        if fragment.get("preciseIdentifier"):
            ids.add(fragment["preciseIdentifier"])
    return ids

service = next((s for s in spi_symbols if path(s) == "IdentityService"), None)
requirement_names = set()
integrator = set()
if service:
    for s in spi_symbols:
        if s["pathComponents"][0] == "IdentityService":
            integrator.add(s["identifier"]["precise"])
            if len(s["pathComponents"]) == 2:
                requirement_names.add(s["pathComponents"][1])
    # Default implementations live in extensions of IdentityService: same path prefix (counted above).
http_witnesses = {
    s["identifier"]["precise"] for s in spi_symbols
    if len(s["pathComponents"]) == 2 and s["pathComponents"][0] == "HTTPIdentityService" and s["pathComponents"][1] in requirement_names
}
integrator |= http_witnesses
# Wire models: top-level types that only integrator symbols (or the models themselves) mention.
types_by_id = {s["identifier"]["precise"]: s for s in spi_symbols if s["kind"]["identifier"] in TYPE_KINDS and len(s["pathComponents"]) == 1}
def owner(s):
    return s["pathComponents"][0]
mentions = collections.defaultdict(set)  # type name -> set of owners (top-level names) mentioning it
for s in spi_symbols:
    for ident in mentioned_types(s):
        if ident in types_by_id:
            mentioned_by = "IdentityService" if s["identifier"]["precise"] in integrator else owner(s)
            mentions[types_by_id[ident]["pathComponents"][0]].add(mentioned_by)
wire = set()
changed = True
while changed:
    changed = False
    for name, owners in mentions.items():
        if name in wire or name == "IdentityService":
            continue
        others = owners - {name}
        if others and others <= {"IdentityService"} | wire:
            wire.add(name)
            changed = True
for s in spi_symbols:
    if owner(s) in wire:
        integrator.add(s["identifier"]["precise"])
shown = integrator & public_ids
def public_count(predicate):
    return sum(1 for s in spi_symbols if s["identifier"]["precise"] in shown and predicate(s))
print("integrator-only symbols in the host product:", len(shown),
      "(IdentityService and its defaults: %d, wire models only it uses: %d types, %d symbols, HTTPIdentityService witnesses: %d; %d behind @_spi)" % (
          public_count(lambda s: owner(s) == "IdentityService"), len(wire),
          public_count(lambda s: owner(s) in wire), len(http_witnesses & public_ids), len(integrator - public_ids)))
if wire:
    print("  wire models:", ", ".join(sorted(wire)))

# Entry points per flow: UserClient's public methods by the folder of their file.
flows = collections.defaultdict(list)
for s in symbols:
    if len(s["pathComponents"]) == 2 and s["pathComponents"][0] == "UserClient" and s["kind"]["identifier"] == "swift.method":
        uri = (s.get("location") or {}).get("uri", "")
        match = re.search(r"/Sources/IdentityFlow/([^/]+)/", uri)
        flows[match.group(1) if match else "?"].append(s["pathComponents"][1])
print("UserClient entry points per flow (public methods by folder):", sum(len(v) for v in flows.values()))
for folder in sorted(flows):
    names = sorted(flows[folder])
    counts = collections.Counter(n.split("(")[0] for n in names)
    summary = ", ".join("%s x%d" % (n, c) if c > 1 else n for n, c in sorted(counts.items()))
    print("  %s: %d (%s)" % (folder, len(names), summary))
PY

# ---- Host face (issue 27 item 3): the most public entry points of one request kind, i.e. of
# ---- UserClient methods sharing a base name (registerUser's delegate, responder and closure
# ---- styles are one kind); the issue asks for at most 3.
python3 - "$work/public.json" <<'PY'
import collections, json, sys
symbols = json.load(open(sys.argv[1]))["symbols"]
kinds = collections.Counter(
    s["pathComponents"][1].split("(")[0] for s in symbols
    if len(s["pathComponents"]) == 2 and s["pathComponents"][0] == "UserClient" and s["kind"]["identifier"] == "swift.method")
name, most = kinds.most_common(1)[0]
print("most UserClient entry points of one request kind:", most, "(%s)" % name)
PY
