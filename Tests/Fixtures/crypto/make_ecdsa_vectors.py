#!/usr/bin/env python3
"""Generate ECDSA verification vectors on P-384 and P-521 (FIPS 186-4 §6.4, SEC 1 §4.1.4) as JWS
ES384 / ES512 encode signatures (RFC 7518 §3.4: r || s, 48 or 66 bytes each, big-endian), for
IdentityFlow's ECDSA tests.

Usage: make_ecdsa_vectors.py [OUTPUT.json]   (default: ecdsa-vectors.json next to this script)

Writes JSON with:
  curves      p, n, b, gx, gy (hex) of P-384 and P-521, n and G as `cryptography` has them (b from
              G and p, p from its definition), and of "toy", a curve y^2 = x^3 - 3x + b of prime
              order n < p over a 15-bit field, found here, on which x_R >= n happens often enough
              to sign with it (on P-384 and P-521 it happens with probability below 2^-190).
  signatures  {curve, x, y (hex, coordinate length), hash, message (hex), signature (hex, r || s),
              valid, comment}: signatures by `cryptography` (valid ones, high s, over SHA-256,
              SHA-384 and SHA-512, the last truncated to 384 bits on P-384 and not shifted on
              P-521, keys 1 and n - 1 whose points are G and -G), values out of range, other
              lengths and the DER form, and signatures computed here from chosen nonces (a digest
              shifted left to n's 521 bits, R at infinity) or on the toy curve. Every P-384 and
              P-521 vector is checked with `cryptography` (where it can take the signature: not
              out of range, not of another length) before it is written.
The keys and nonces are random: every run changes every vector, not what it means.
Requires the `cryptography` package.
"""
import hashlib
import json
import os
import secrets
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import Prehashed, decode_dss_signature, encode_dss_signature

CURVES = {
    "P-384": (ec.SECP384R1(), 2**384 - 2**128 - 2**96 + 2**32 - 1, 48),
    "P-521": (ec.SECP521R1(), 2**521 - 1, 66),
}
HASHES = {"sha256": (hashes.SHA256, hashlib.sha256), "sha384": (hashes.SHA384, hashlib.sha384),
          "sha512": (hashes.SHA512, hashlib.sha512)}


def parameters(name):
    """p, n, b, gx, gy: n and G from `cryptography`, b from G (a = -3)."""
    curve, p, _ = CURVES[name]
    g = ec.derive_private_key(1, curve).public_key().public_numbers()
    b = (g.y * g.y - g.x ** 3 + 3 * g.x) % p
    return {"p": p, "n": curve.group_order, "b": b, "gx": g.x, "gy": g.y}


def bits2int(digest, n):
    """SEC 1 §4.1.4 step 3: the digest's leftmost bit_length(n) bits as an integer."""
    e = int.from_bytes(digest, "big")
    excess = 8 * len(digest) - n.bit_length()
    return e >> excess if excess > 0 else e


def point_of(name, scalar):
    """scalar * G by `cryptography`."""
    numbers = ec.derive_private_key(scalar, CURVES[name][0]).public_key().public_numbers()
    return numbers.x, numbers.y


def sign_e(name, d, e):
    """An ECDSA signature (r, s) of the integer e (already truncated) by key d, with a random nonce."""
    n = CURVES[name][0].group_order
    while True:
        k = secrets.randbelow(n - 1) + 1
        r = point_of(name, k)[0] % n
        s = pow(k, -1, n) * (e + r * d) % n
        if r and s:
            return r, s


# ---- The toy curve: pure Python, small enough to count its points.

TOY_P = 32719  # prime, below 2^15 so that r + n and s + n fit in 2 bytes


def toy_curve():
    """y^2 = x^3 - 3x + b mod TOY_P with prime order n < p (so x_R >= n happens), the first such b."""
    p = TOY_P
    for b in range(1, p):
        count = 1 + sum(1 + (0 if v == 0 else (1 if pow(v, (p - 1) // 2, p) == 1 else -1))
                        for v in ((x * x * x - 3 * x + b) % p for x in range(p)))
        if count < p and is_prime(count):
            for x in range(1, p):
                v = (x ** 3 - 3 * x + b) % p
                if v and pow(v, (p - 1) // 2, p) == 1:
                    y = next(y for y in range(p) if y * y % p == v)
                    return {"p": p, "n": count, "b": b, "gx": x, "gy": y}
    raise RuntimeError("no toy curve")


def is_prime(value):
    return value > 1 and all(value % f for f in range(2, int(value ** 0.5) + 1))


def toy_add(c, P, Q):
    p = c["p"]
    if P is None:
        return Q
    if Q is None:
        return P
    if P[0] == Q[0] and (P[1] + Q[1]) % p == 0:
        return None
    if P == Q:
        slope = (3 * P[0] * P[0] - 3) * pow(2 * P[1], -1, p) % p
    else:
        slope = (Q[1] - P[1]) * pow(Q[0] - P[0], -1, p) % p
    x = (slope * slope - P[0] - Q[0]) % p
    return x, (slope * (P[0] - x) - P[1]) % p


def toy_multiply(c, k, P):
    result = None
    for bit in bin(k)[2:]:
        result = toy_add(c, result, result)
        if bit == "1":
            result = toy_add(c, result, P)
    return result


def toy_verify(c, Q, digest, r, s):
    n = c["n"]
    if not (0 < r < n and 0 < s < n):
        return False
    w = pow(s, -1, n)
    R = toy_add(c, toy_multiply(c, bits2int(digest, n) * w % n, (c["gx"], c["gy"])), toy_multiply(c, r * w % n, Q))
    return R is not None and R[0] % n == r


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "ecdsa-vectors.json")
    curves = {name: parameters(name) for name in CURVES}
    toy = toy_curve()
    curves["toy"] = toy
    vectors = []

    def add(name, public, hash_name, message, signature, valid, comment, check=True):
        size = CURVES[name][2] if name in CURVES else 2
        if check:
            # cryptography takes r || s only as DER, of in-range values of the right length.
            half = len(signature) // 2
            r, s = int.from_bytes(signature[:half], "big"), int.from_bytes(signature[half:], "big")
            numbers = ec.EllipticCurvePublicNumbers(public[0], public[1], CURVES[name][0])
            try:
                numbers.public_key().verify(encode_dss_signature(r, s), message, ec.ECDSA(HASHES[hash_name][0]()))
                accepted = True
            except InvalidSignature:
                accepted = False
            assert accepted == valid, f"{name} {comment}: cryptography says {accepted}"
        vectors.append({"curve": name, "x": public[0].to_bytes(size, "big").hex(), "y": public[1].to_bytes(size, "big").hex(),
                        "hash": hash_name, "message": message.hex(), "signature": signature.hex(), "valid": valid, "comment": comment})

    for name, (curve, p, size) in CURVES.items():
        n = curves[name]["n"]
        raw = lambda r, s: r.to_bytes(size, "big") + s.to_bytes(size, "big")
        key = ec.generate_private_key(curve)
        d = key.private_numbers().private_value
        public = point_of(name, d)
        other = ec.generate_private_key(curve)

        def sign(message, hash_name="sha384" if name == "P-384" else "sha512", signer=key):
            return decode_dss_signature(signer.sign(message, ec.ECDSA(HASHES[hash_name][0]())))

        jws_hash = "sha384" if name == "P-384" else "sha512"
        for hash_name in HASHES:
            for message in (b"abc", b"eyJhbGciOiJFUzM4NCJ9.eyJzdWIiOiJhbGljZSJ9"):
                r, s = sign(message, hash_name)
                add(name, public, hash_name, message, raw(r, s), True, f"valid, {hash_name}")
                add(name, public, hash_name, message, raw(r, n - s), True, f"valid, {hash_name}, s replaced by n - s (high s is valid ECDSA)")
        add(name, public, jws_hash, b"", raw(*sign(b"")), True, "valid, empty message")

        message = b"eyJhbGciOiJFUzUxMiJ9.eyJzdWIiOiJ1c2VyLTEifQ"
        r, s = sign(message)
        add(name, public, jws_hash, message + b"x", raw(r, s), False, "another message")
        add(name, point_of(name, other.private_numbers().private_value), jws_hash, message, raw(r, s), False, "another key")
        add(name, public, jws_hash, message, raw(s, r), False, "r and s swapped")
        add(name, public, jws_hash, message, raw(r, n - 1), False, "s = n - 1, not the signature's")
        flipped = bytearray(raw(r, s))
        flipped[size + size // 2] ^= 0x10
        add(name, public, jws_hash, message, bytes(flipped), False, "a bit of s flipped")
        other_hash = "sha256" if jws_hash != "sha256" else "sha384"
        add(name, public, jws_hash, message, raw(*sign(message, other_hash)), False, f"signed over {other_hash}")
        # Values outside 1...n-1 and encodings cryptography never sees in this form.
        for comment, signature in [("r = 0", raw(0, s)), ("s = 0", raw(r, 0)), ("r = s = 0", raw(0, 0)),
                                   ("r = n", raw(n, s)), ("s = n", raw(r, n)),
                                   ("r = 2^(8 size) - 1", b"\xff" * size + s.to_bytes(size, "big")),
                                   ("one byte short", raw(r, s)[:-1]), ("one byte long (a zero after s)", raw(r, s) + b"\x00"),
                                   ("one byte long (a zero before r)", b"\x00" + raw(r, s)),
                                   ("DER", encode_dss_signature(r, s))]:
            add(name, public, jws_hash, message, signature, False, comment, check=False)
        if name == "P-521":
            # 66 bytes hold values up to 2^528 - 1 > 2n: the same residue mod n, out of range.
            add(name, public, jws_hash, message, raw(r + n, s), False, "r + n (congruent to r, out of range)", check=False)
            add(name, public, jws_hash, message, raw(r, s + n), False, "s + n (congruent to s, out of range)", check=False)
        # Keys 1 and n - 1 (Q = G and Q = -G): Shamir's trick adds G + Q, a doubling and the point at infinity.
        for private_value, comment in ((1, "key 1: Q = G, so G + Q is a doubling"), (n - 1, "key n - 1: Q = -G, so G + Q is the point at infinity")):
            signer = ec.derive_private_key(private_value, curve)
            add(name, point_of(name, private_value), jws_hash, message, raw(*sign(message, signer=signer)), True, comment)
        # R = u1 G + u2 Q = (e + r d) / s G is the point at infinity when r = -e / d mod n.
        e = bits2int(HASHES[jws_hash][1](message).digest(), n)
        add(name, public, jws_hash, message, raw(-e * pow(d, -1, n) % n, secrets.randbelow(n - 1) + 1), False,
            "R is the point at infinity (r = -e / d mod n)")
        # The digest truncated to n's bit length: SHA-512 on P-384 keeps its leftmost 384 bits; on
        # P-521, SHA-512 is shorter than n and is taken whole, not shifted left to 521 bits.
        digest = hashlib.sha512(message).digest()
        if name == "P-384":
            add(name, public, "sha512", message, raw(*sign_e(name, d, int.from_bytes(digest, "big") >> 128)), True,
                "SHA-512 truncated to its leftmost 384 bits, signed here")
            add(name, public, "sha512", message, raw(*sign_e(name, d, int.from_bytes(digest, "big") % n)), False,
                "SHA-512 reduced mod n instead of truncated")
        else:
            add(name, public, "sha512", message, raw(*sign_e(name, d, int.from_bytes(digest, "big"))), True,
                "SHA-512 taken whole (shorter than n), signed here")
            add(name, public, "sha512", message, raw(*sign_e(name, d, int.from_bytes(digest, "big") << 9)), False,
                "SHA-512 shifted left to n's 521 bits")

    # The toy curve: x_R >= n, where only the reduction mod n makes r match.
    n, g = toy["n"], (toy["gx"], toy["gy"])
    d = secrets.randbelow(n - 1) + 1
    q = toy_multiply(toy, d, g)
    message = b"toy"
    digest = hashlib.sha256(message).digest()
    e = bits2int(digest, n)
    found = {"small": None, "large": None}
    for k in range(1, n):
        R = toy_multiply(toy, k, g)
        s = pow(k, -1, n) * (e + R[0] % n * d) % n
        kind = "large" if R[0] >= n else "small"
        if R[0] % n and s and found[kind] is None:
            found[kind] = (R[0] % n, s)
        if all(found.values()):
            break

    def toy_add_vector(r, s, valid, comment, public=q):
        signature = r.to_bytes(2, "big") + s.to_bytes(2, "big")
        assert toy_verify(toy, public, digest, r, s) == valid, comment
        vectors.append({"curve": "toy", "x": public[0].to_bytes(2, "big").hex(), "y": public[1].to_bytes(2, "big").hex(),
                        "hash": "sha256", "message": message.hex(), "signature": signature.hex(), "valid": valid, "comment": comment})

    (r1, s1), (r2, s2) = found["small"], found["large"]
    toy_add_vector(r1, s1, True, "x_R < n")
    toy_add_vector(r2, s2, True, "x_R >= n, r = x_R - n")
    toy_add_vector(r1, n - s1, True, "x_R < n, high s")
    toy_add_vector(r1 + n, s1, False, "r + n (congruent to r, out of range)")
    toy_add_vector(r1, s1 + n, False, "s + n (congruent to s, out of range)")
    toy_add_vector(r2, s2, False, "another key", public=toy_multiply(toy, d % (n - 1) + 1, g))

    document = {
        "generator": "Tests/Fixtures/crypto/make_ecdsa_vectors.py",
        "curves": {name: {k: format(v, "x") for k, v in values.items()} for name, values in curves.items()},
        "signatures": vectors,
    }
    with open(out, "w") as handle:
        json.dump(document, handle, indent=0)
        handle.write("\n")


if __name__ == "__main__":
    main()
