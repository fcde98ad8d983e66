#!/usr/bin/env bash
# Runs the test suite with code coverage and prints line coverage per target of Sources/
# (tests and .build/ left out), from the toolchain's llvm-cov. Extra arguments go to
# `swift test` (for example `--skip InteropTests` when the OpenID Connect fixtures are not
# running). A separate build directory keeps the normal build.
#
#   bash scripts/coverage.sh --skip InteropTests
#
# SwiftPM instruments Swift targets only; the -Xcc flags instrument the C target
# (CIdentityFlowCrypto) too. The executables the tests start as child processes (identityflow's
# demo, the crash writer) write their own profiles into the same profdata.
set -euo pipefail
cd "$(dirname "$0")/.."
build=(--scratch-path .build/coverage -Xcc -fprofile-instr-generate -Xcc -fcoverage-mapping)
swift test --enable-code-coverage "${build[@]}" "$@"

bin="$(swift build "${build[@]}" --show-bin-path)"
profdata="$(dirname "$(swift test --enable-code-coverage "${build[@]}" --show-codecov-path)")/default.profdata"
llvm_cov="$(dirname "$(readlink -f "$(command -v swift)")")/llvm-cov"
[[ -x "$llvm_cov" ]] || llvm_cov="$(command -v llvm-cov)"

test_binary="$bin/IdentityFlowPackageTests.xctest"
[[ -f "$test_binary" ]] || test_binary="$bin/IdentityFlowPackageTests.xctest/Contents/MacOS/IdentityFlowPackageTests"
objects=("$test_binary")
for executable in identityflow identityflow-crash-writer; do
    [[ -f "$bin/$executable" ]] && objects+=(-object "$bin/$executable")
done

# Per-file line counts (LF: lines, LH: lines hit) summed per Sources/<target>/; files under
# Tests/ and .build/ (generated test runners) are left out.
"$llvm_cov" export -format=lcov -summary-only "${objects[@]}" -instr-profile "$profdata" |
    awk -v root="$PWD/" '
        /^SF:/ { file = substr($0, 4); sub("^" root, "", file); target = ""
                 if (file ~ /^Sources\// && file !~ /(^|\/)(Tests|\.build)\//) { split(file, part, "/"); target = part[2] } }
        /^LF:/ && target != "" { found[target] += substr($0, 4) }
        /^LH:/ && target != "" { hit[target] += substr($0, 4) }
        END {
            printf "%-22s %8s %8s %8s\n", "target", "lines", "missed", "cover"
            n = split("IdentityFlow IdentityFlowTesting Statechart StatechartExport IdentityFlowCharts CIdentityFlowCrypto identityflow", order, " ")
            for (i = 1; i <= n; i++) {
                t = order[i]
                if (found[t] == 0) { printf "%-22s %8s\n", t, "no data"; continue }
                printf "%-22s %8d %8d %7.2f%%\n", t, found[t], found[t] - hit[t], 100 * hit[t] / found[t]
            }
        }'
