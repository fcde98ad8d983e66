#!/bin/sh
# Runs the fuzz targets (Tests/IdentityFlowTests/Fuzz: configuration loader, SCXML reader, JSON and
# JWT parsers, RSA signature checks, ECDSA verifiers, redirect parser) much longer than the normal suite does.
#
#   IDENTITYFLOW_FUZZ_ITERATIONS  inputs per target (default 200000; the suite's short run uses 500)
#   IDENTITYFLOW_FUZZ_SEED        the seed (default: a random one, printed first)
#   IDENTITYFLOW_FUZZ_TRACE=1     print every input before it is tried (to name the one that traps)
#
# A failed check is reported with its target, seed, iteration and input. If the process traps, the
# script reruns the same seed with tracing and prints the last input tried. Extra arguments go to
# `swift test` (for example --scratch-path .build-x).
set -eu

cd "$(dirname "$0")/.."
IDENTITYFLOW_FUZZ_ITERATIONS=${IDENTITYFLOW_FUZZ_ITERATIONS:-200000}
IDENTITYFLOW_FUZZ_SEED=${IDENTITYFLOW_FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
export IDENTITYFLOW_FUZZ_ITERATIONS IDENTITYFLOW_FUZZ_SEED
echo "fuzz: seed $IDENTITYFLOW_FUZZ_SEED, $IDENTITYFLOW_FUZZ_ITERATIONS iterations per target"
echo "fuzz: reproduce with IDENTITYFLOW_FUZZ_SEED=$IDENTITYFLOW_FUZZ_SEED IDENTITYFLOW_FUZZ_ITERATIONS=$IDENTITYFLOW_FUZZ_ITERATIONS scripts/fuzz.sh"

swift build "$@" --build-tests >&2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
swift test "$@" --skip-build --filter FuzzTests >"$log" 2>&1 || status=$?
grep -v 'CFPropertyListCreateFromXMLData' "$log" || true
if [ "$status" -ne 0 ] && grep -q "unexpected signal" "$log"; then
    echo "fuzz: the process trapped; rerunning each target with tracing to find the input" >&2
    for target in configuration json jwtCompact jwtParts signatures scxml redirect ecdsa; do
        if ! IDENTITYFLOW_FUZZ_TRACE=1 swift test "$@" --skip-build --filter "FuzzTests/$target" >"$log" 2>&1; then
            if grep -q "unexpected signal" "$log"; then
                echo "fuzz: $target trapped on:" >&2
                grep -a '^fuzz .* [0-9]*: ' "$log" | tail -1 >&2
            fi
        fi
    done
fi
exit "$status"
