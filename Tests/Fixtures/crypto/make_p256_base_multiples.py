#!/usr/bin/env python3
"""Write p256-base-multiples.json: P-256 public keys k·G made with Python's `cryptography`, for
P256BaseMultipleTests (which reads them): the edge scalars of the fixed-base table (1, 2, n-1,
n-2, the Booth digits' boundaries 63, 64, 65, 127, 128, 129 in every 7-bit window, 2^252 and the
top window's largest digits) and seeded random scalars.

Usage: make_p256_base_multiples.py   (writes p256-base-multiples.json next to this script)
"""
import json
import os
import random

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


def public_key(k):
    key = ec.derive_private_key(k, ec.SECP256R1())
    return key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def main():
    scalars = [1, 2, 3, 63, 64, 65, 127, 128, 129, N - 1, N - 2, N - 64, N - 65, N // 2, 2**252, 2**252 - 1, 2**255, 2**256 - 2**224]
    # Every 7-bit window at the Booth boundaries: 64 (positive, no carry), 65 (negative, carry), 127.
    scalars += [sum(d << (7 * i) for i in range(36)) for d in (64, 65, 127)]
    scalars += [sum(64 << (7 * i) for i in range(0, 36, 2)), sum(65 << (7 * i) for i in range(1, 36, 2))]
    generator = random.Random(38)
    scalars += [generator.randrange(1, N) for _ in range(24)]
    cases = [{"scalar": format(k % N, "064x"), "public_key": public_key(k % N).hex()} for k in scalars if k % N]
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "p256-base-multiples.json")
    with open(path, "w") as out:
        json.dump({"source": "make_p256_base_multiples.py (Python cryptography)", "cases": cases}, out, indent=1)
        out.write("\n")


if __name__ == "__main__":
    main()
