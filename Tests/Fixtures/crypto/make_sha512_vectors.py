#!/usr/bin/env python3
"""Generate SHA-384 / SHA-512 vectors for IdentityFlow's C engine (SHA512.c).

Usage: make_sha512_vectors.py [OUTPUT.json]

One case for EVERY message length 0...300 with random (seeded) bytes, so every padding position
(111/112 bytes: one or two tail blocks) and block count is covered, plus long messages whose bytes
are (31 * i + 7) mod 256 for i in 0..<length (the test rebuilds them instead of reading them).
Each digest is computed by hashlib and by the `cryptography` package; the script stops if they
disagree.
"""
import hashlib
import json
import random
import sys

from cryptography.hazmat.primitives import hashes


def digest(name, data):
    ours = hashlib.new(name, data).digest()
    h = hashes.Hash(hashes.SHA384() if name == "sha384" else hashes.SHA512())
    h.update(data)
    assert h.finalize() == ours
    return ours.hex()


def main():
    rng = random.Random(20261126)
    cases = []
    for length in range(301):
        data = rng.randbytes(length)
        cases.append({"message": data.hex(), "sha384": digest("sha384", data), "sha512": digest("sha512", data)})
    long_cases = []
    for length in (1023, 1024, 4097, 16384, 65536 + 5):
        data = bytes((31 * i + 7) % 256 for i in range(length))
        long_cases.append({"length": length, "sha384": digest("sha384", data), "sha512": digest("sha512", data)})
    out = open(sys.argv[1], "w") if len(sys.argv) > 1 else sys.stdout
    json.dump({"cases": cases, "patterned": long_cases}, out, indent=1)
    out.write("\n")


if __name__ == "__main__":
    main()
