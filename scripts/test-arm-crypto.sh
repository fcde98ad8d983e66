#!/usr/bin/env bash
# Runs the C crypto's ARM code where no ARM machine is at hand: CIdentityFlowCrypto's SHA-256
# (the ARMv8 SHA2 instructions of SHA256Arm.c, which every iPhone takes, and the portable code)
# cross-compiled for aarch64 and run under qemu-aarch64 against Tests/Fixtures/crypto/hash-vectors.json,
# the vectors SHA256EngineTests checks the x86-64 engines with: SHA-256, HMAC-SHA256 and
# PBKDF2-HMAC-SHA256 for every message length 0...300. It fails unless the hardware engine was
# chosen and every vector matches.
#
#   bash scripts/test-arm-crypto.sh               needs aarch64-linux-gnu-gcc and qemu-aarch64
#   bash scripts/test-arm-crypto.sh --if-present  prints one line and succeeds when they are absent
#
# Debian: apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if ! command -v aarch64-linux-gnu-gcc >/dev/null || ! command -v qemu-aarch64 >/dev/null; then
    if [ "${1:-}" = --if-present ]; then
        echo "test-arm-crypto: skipped, aarch64-linux-gnu-gcc or qemu-aarch64 is not installed (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user)"
        exit 0
    fi
    echo "test-arm-crypto: needs aarch64-linux-gnu-gcc and qemu-aarch64 (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user)" >&2
    exit 2
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
crypto="$root/Sources/CIdentityFlowCrypto"
python3 - "$root/Tests/Fixtures/crypto/hash-vectors.json" >"$work/vectors.txt" <<'PY'
import json, sys
for case in json.load(open(sys.argv[1]))["cases"]:
    fields = [case["data"], case["key"], case["salt"], str(case["iterations"]), str(case["keyLength"]), case["sha256"], case["hmac"], case["pbkdf2"]]
    print(" ".join(field or "-" for field in fields))
PY
# Built twice: by Clang, the compiler Apple's toolchains and the Swift toolchain use (with the
# cross C library and linker of Debian's gcc-aarch64-linux-gnu), and by that GCC. -march=armv8-a:
# the SHA2 instructions come only from SHA256Arm.c's target attribute, and the engine is chosen
# at run time from HWCAP, as on a device. -cpu max: a CPU with the ARMv8 SHA2 extension
# (HWCAP_SHA2), as every 64-bit iPhone has.
flags=(-std=c11 -O2 -Wall -Wextra -Werror -march=armv8-a -static -I "$crypto/include" -I "$crypto")
sources=("$crypto/SHA256Arm.c" "$crypto/SHA256Dispatch.c" "$crypto/SHA256Portable.c" "$root/scripts/arm-crypto/sha256_vectors.c")
compilers=(aarch64-linux-gnu-gcc)
if command -v clang >/dev/null; then compilers=("clang --target=aarch64-linux-gnu" "${compilers[@]}"); fi
for compiler in "${compilers[@]}"; do
    echo "test-arm-crypto: $compiler"
    $compiler "${flags[@]}" "${sources[@]}" -o "$work/sha256-vectors"
    qemu-aarch64 -cpu max "$work/sha256-vectors" <"$work/vectors.txt"
done
