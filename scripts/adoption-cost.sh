#!/bin/sh
# What adopting IdentityFlow costs a host, measured and printed (docs/performance.md, "Cost of
# adoption"):
#
#   1. build: a clean release build of the library targets (IdentityFlow and what it depends on:
#      Statechart, CIdentityFlowCrypto) in a scratch directory of its own: wall time, CPU time and
#      the cores that time kept busy (CPU / wall). The machine's load average is printed with it,
#      since another build on the same cores stretches the wall time.
#   2. size: two minimal executables, built -c release and stripped, one printing a line and one
#      creating a UserClient over HTTP (the README's quick start) and a P-256 device key: the
#      difference is what linking IdentityFlow adds. Then the largest parts of the difference, by
#      module (from the unstripped binary's symbol sizes) with the C tables in .bss, IdentityFlow's
#      symbols by kind (generic specialisations, metadata, witness tables, closures, code) and its
#      fifteen heaviest types, the sections (.eh_frame included), and the same host built with -Osize.
#
# ADOPTION_KEEP=1 keeps the scratch directory (its path is printed) for a closer look.
#
# Usage: scripts/adoption-cost.sh [--build-only | --size-only]
# Prints figures only; budgets and how close they are live in docs/performance.md.
set -eu

cd "$(dirname "$0")/.."
repo=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -n "${ADOPTION_KEEP:-}" ] && trap - EXIT && echo "adoption: keeping $work"
mode=${1:-all}

if [ "$mode" != "--size-only" ]; then
    echo "adoption: load average before the build: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
    /usr/bin/time -f "%e %U %S" -o "$work/library.time" \
        swift build -c release --target IdentityFlow --scratch-path "$work/library" >"$work/library.log" 2>&1 || {
        cat "$work/library.log" >&2
        exit 1
    }
    awk '{ wall = $1; cpu = $2 + $3
        printf "build: clean release build of the library targets: %.1f s wall, %.1f s CPU, %.2f cores busy on average\n", wall, cpu, cpu / wall }' \
        "$work/library.time"
fi

[ "$mode" = "--build-only" ] && exit 0

make_host() { # name, dependency line, target dependency, main.swift body
    mkdir -p "$work/$1/Sources/host"
    cat >"$work/$1/Package.swift" <<PACKAGE
// swift-tools-version: 6.2
import PackageDescription
let package = Package(
    name: "$1",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [$2],
    targets: [.executableTarget(name: "host", dependencies: [$3])]
)
PACKAGE
    printf '%s\n' "$4" >"$work/$1/Sources/host/main.swift"
    swift build -c release --package-path "$work/$1" >"$work/$1.log" 2>&1 || {
        cat "$work/$1.log" >&2
        exit 1
    }
    cp "$work/$1/.build/release/host" "$work/$1.unstripped"
    strip -o "$work/$1.stripped" "$work/$1.unstripped"
}

make_host plain "" "" 'print("hello")'
make_host linked ".package(path: \"$repo\")" ".product(name: \"IdentityFlow\", package: \"$(basename "$repo")\")" '
import Foundation
import IdentityFlow

let configuration = ClientConfiguration(redirectURI: URL(string: "myapp://callback")!)
let server = try IdentityServer.openIDConnect(HTTPServiceConfiguration(
    issuer: URL(string: "https://idp.example")!, clientID: "app", redirectURI: URL(string: "myapp://callback")!))
let client = UserClient(configuration: configuration, server: server, storage: InMemoryStorage())
print(client, configuration.pinKeyIterations)
'
plain=$(stat -c %s "$work/plain.stripped")
linked=$(stat -c %s "$work/linked.stripped")
echo "size: a stripped minimal host: $plain B; linking IdentityFlow and creating a client: $linked B; difference $((linked - plain)) B ($(( (linked - plain) / 1024 )) KiB)"

# Where the difference is: symbol sizes in the unstripped binary, by the module their mangled
# name starts with (Swift: $s<length><module>); unmangled symbols are CIdentityFlowCrypto's C
# functions and tables and the linker's glue. .bss is memory the first use fills, not file bytes.
nm --size-sort -S -t d "$work/linked.unstripped" 2>/dev/null | awk '
    {
        size = $2 + 0; name = $4; type = $3
        if (name ~ /^\$s[0-9]+/) {
            match(name, /^\$s[0-9]+/); digits = substr(name, 3, RLENGTH - 2)
            module = "Swift module " substr(name, RLENGTH + 1, digits + 0)
        } else {
            module = "C (CIdentityFlowCrypto) and glue"
        }
        if (type ~ /[bB]/) { bss[module] += size } else { bytes[module] += size }
    }
    END {
        for (m in bytes) if (bytes[m] >= 4096) printf "%d|%s|in the file\n", bytes[m], m
        for (m in bss) if (bss[m] >= 4096) printf "%d|%s|zero-initialised (.bss)\n", bss[m], m
    }' | sort -t'|' -k1,1 -n -r | awk -F'|' '{ printf "size:   %-34s %9d B %s\n", $2, $1, $3 }'
# IdentityFlow's own Swift symbols by kind (from the mangling's suffix: generic
# specialisations, type metadata and descriptors, witness tables, the rest code), and the types
# whose symbols weigh most (demangled, specialisations counted with the type they specialise),
# so the next drift shows where it happened.
nm --size-sort -S -t d "$work/linked.unstripped" 2>/dev/null | awk '$4 ~ /^\$s12IdentityFlow/ && $3 !~ /[bB]/ {
        name = $4; size = $2 + 0
        if (name ~ /T[gG]q?5/) kind = "generic specialisations"
        else if (name ~ /(M[nfFNpaVrlLmoqsuz]|Mn[a-zA-Z]?)$/) kind = "type metadata and descriptors"
        else if (name ~ /(W[PpVvLlaGIi]|WOy|WOe|WOh|WOs|WOb|WOc|WOd|WOf|WOw|WOx|WOz)$/) kind = "witness tables and outlined value ops"
        else if (name ~ /TA$|fU[0-9]*_|fu[0-9]*_/) kind = "closures and partial applies"
        else if (name ~ /Tu$|TQ[0-9]+_$|TY[0-9]+_$/) kind = "async function pointers and continuations"
        else kind = "functions"
        total[kind] += size
    }
    END { for (k in total) printf "%d|%s\n", total[k], k }' | sort -t'|' -k1,1 -n -r |
    awk -F'|' '{ printf "size:   IdentityFlow %-42s %9d B\n", $2, $1 }'
if command -v swift-demangle >/dev/null 2>&1 || swift demangle --help >/dev/null 2>&1; then
    nm -S -t d "$work/linked.unstripped" 2>/dev/null | awk '$4 ~ /^\$s12IdentityFlow/ && $3 !~ /[bB]/ { print $2 + 0, $4 }' >"$work/symbols"
    cut -d' ' -f2 "$work/symbols" | swift demangle 2>/dev/null >"$work/demangled" || true
    paste -d'|' "$work/symbols" "$work/demangled" | awk -F'|' '{
            split($1, parts, " "); size = parts[1] + 0; text = $2
            while (gsub(/<[^<>]*>/, "", text) > 0) {}
            sub(/^\([0-9]+\) /, "", text)
            head = text; if (index(head, "(") > 0) head = substr(head, 1, index(head, "(") - 1)
            if (match(head, /IdentityFlow\.[A-Za-z0-9_]+/)) type = substr(head, RSTART + 13, RLENGTH - 13)
            else type = "(Swift generics specialised here)"
            total[type] += size
        }
        END { for (t in total) printf "%d|%s\n", total[t], t }' | sort -t'|' -k1,1 -n -r | head -15 |
        awk -F'|' '{ printf "size:   IdentityFlow type %-37s %9d B\n", $2, $1 }'
fi
size -A "$work/linked.stripped" | awk '$1 ~ /^\.(text|rodata|data|bss|eh_frame|data\.rel\.ro)$/ { printf "size:   section %-26s %9d B\n", $1, $2 }'

# What a host can choose: the same host with every module compiled for size (-Osize).
swift build -c release -Xswiftc -Osize --package-path "$work/linked" --scratch-path "$work/osize" >"$work/osize.log" 2>&1 || {
    cat "$work/osize.log" >&2
    exit 1
}
strip -o "$work/osize.stripped" "$work/osize/release/host"
osize=$(stat -c %s "$work/osize.stripped")
echo "size: the same host built with -Xswiftc -Osize: $osize B; difference to the minimal host $((osize - plain)) B ($(( (osize - plain) / 1024 )) KiB)"
