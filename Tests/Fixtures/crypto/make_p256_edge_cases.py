#!/usr/bin/env python3
"""Write p256-edge-cases.json: ECDSA P-256/SHA-256 cases in the manner of Wycheproof, made with
Python's `cryptography`, for P256Tests (which reads them) and any verifier to check against.

Usage: make_p256_edge_cases.py   (writes p256-edge-cases.json next to this script)

Each case: public key (hex, SEC1 as given), message (hex), signature (hex, r || s as given), and
whether a verifier must accept it. Random keys: the file changes when regenerated; the cases'
meaning does not.
"""
import json
import os

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils

N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF


def point(key):
    return key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def raw(r, s):
    return r.to_bytes(32, "big") + s.to_bytes(32, "big")


def main():
    key = ec.generate_private_key(ec.SECP256R1())
    public = point(key)
    message = b"identityflow edge cases"
    r, s = utils.decode_dss_signature(key.sign(message, ec.ECDSA(hashes.SHA256())))
    low, high = min(s, N - s), max(s, N - s)
    x, y = int.from_bytes(public[1:33], "big"), int.from_bytes(public[33:], "big")
    k1 = ec.generate_private_key(ec.SECP256K1())
    k1_r, k1_s = utils.decode_dss_signature(k1.sign(message, ec.ECDSA(hashes.SHA256())))
    p384 = ec.generate_private_key(ec.SECP384R1())
    cases = [
        ("valid, low s", public, message, raw(r, low), True),
        ("valid, high s (FIPS 186-5 accepts it)", public, message, raw(r, high), True),
        ("another message", public, message + b"!", raw(r, low), False),
        ("r = 0", public, message, raw(0, low), False),
        ("s = 0", public, message, raw(r, 0), False),
        ("r = n", public, message, raw(N, low), False),
        ("s = n", public, message, raw(r, N), False),
        ("s = n + low s (same value mod n, out of range)", public, message, raw(r, N + low) if N + low < 2**256 else raw(r, N), False),
        ("r and s swapped", public, message, raw(low, r), False),
        ("point not on the curve", b"\x04" + x.to_bytes(32, "big") + ((y + 1) % P).to_bytes(32, "big"), message, raw(r, low), False),
        ("x = p (coordinate out of range)", b"\x04" + P.to_bytes(32, "big") + y.to_bytes(32, "big"), message, raw(r, low), False),
        ("compressed point", bytes([2 + (y & 1)]) + x.to_bytes(32, "big"), message, raw(r, low), False),
        ("point at infinity encoding", b"\x00", message, raw(r, low), False),
        ("secp256k1 key and signature (wrong curve)", point(k1), message, raw(k1_r, k1_s), False),
        ("P-384 key (wrong curve)", point(p384), message, raw(r, low), False),
        ("signature of 63 bytes", public, message, raw(r, low)[:63], False),
        ("signature of 65 bytes", public, message, raw(r, low) + b"\x00", False),
    ]
    document = {
        "generator": "Tests/Fixtures/crypto/make_p256_edge_cases.py",
        "cases": [{"name": n, "public_key": k.hex(), "message": m.hex(), "signature": sig.hex(), "valid": v} for n, k, m, sig, v in cases],
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "p256-edge-cases.json")
    with open(path, "w") as file:
        json.dump(document, file, indent=1)
        file.write("\n")
    print(path)


if __name__ == "__main__":
    main()
