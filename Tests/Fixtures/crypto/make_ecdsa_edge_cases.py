#!/usr/bin/env python3
"""Generate Wycheproof-style ECDSA edge cases on P-256, P-384 and P-521 for IdentityFlow's C
verifiers (P256Verify.c, P384.c, P521.c), given as digests rather than messages so that the
digest itself can be chosen.

Usage: make_ecdsa_edge_cases.py [OUTPUT.json]   (default: ecdsa-edge-cases.json next to this script)

Writes {"cases": [{curve, x, y, digest, signature (r || s), valid, comment}]} with, per curve:
  - x_R >= n: a key chosen so that R = u1 G + u2 Q has an x-coordinate in n...p-1 for a given
    (e, r, s) with r = x_R - n (valid; only the reduction mod n makes r match), and the same with
    r = x_R itself (out of range: invalid);
  - u1 = 0 (a zero digest, and a digest equal to n), u2 = 0 is impossible (r != 0);
  - Q = G with u1 = u2 (Shamir's sum is a doubling), Q = -G with u1 = u2 (the sum is infinity),
    R at infinity for a random key (r = -e/d mod n);
  - r = 1, s = 1, s = n - 1, r = n - 1, each signed for real where a nonce gives it, else invalid;
  - high s (n - s) for a valid signature; r or s equal to n, n + 1 or 2^(8 len) - 1;
  - digests longer than n (P-521: 66 and 80 bytes; P-384: 64 to 80 bytes) truncated to n's bit
    length, and shorter (32 bytes; 64 on P-521) taken whole (P-256: 32-byte digests only);
  - keys off the curve: y + 1, (0, 0), x or y not below p (x + p fits on P-521), y = p - y (valid
    point -Q, whose signature fails).
Validity comes from the pure-Python verifier below, and every case that `cryptography` can take
(in-range r and s, a digest of SHA-256/384/512 length, a key on the curve) is checked with it
too (Prehashed), so two implementations agree on every expected value.
"""
import json
import os
import secrets
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import Prehashed, encode_dss_signature

CURVES = {
    "P-256": (ec.SECP256R1(), 2**256 - 2**224 + 2**192 + 2**96 - 1, 32),
    "P-384": (ec.SECP384R1(), 2**384 - 2**128 - 2**96 + 2**32 - 1, 48),
    "P-521": (ec.SECP521R1(), 2**521 - 1, 66),
}
PREHASHED = {32: hashes.SHA256(), 48: hashes.SHA384(), 64: hashes.SHA512()}


class Curve:
    def __init__(self, name):
        self.name = name
        self.crypto, self.p, self.size = CURVES[name]
        self.n = self.crypto.group_order
        g = ec.derive_private_key(1, self.crypto).public_key().public_numbers()
        self.g = (g.x, g.y)
        self.b = (g.y * g.y - g.x ** 3 + 3 * g.x) % self.p

    def on_curve(self, q):
        x, y = q
        return 0 <= x < self.p and 0 <= y < self.p and (y * y - x ** 3 + 3 * x - self.b) % self.p == 0

    def add(self, a, b):
        p = self.p
        if a is None:
            return b
        if b is None:
            return a
        if a[0] == b[0] and (a[1] + b[1]) % p == 0:
            return None
        if a == b:
            slope = (3 * a[0] * a[0] - 3) * pow(2 * a[1], -1, p) % p
        else:
            slope = (b[1] - a[1]) * pow(b[0] - a[0], -1, p) % p
        x = (slope * slope - a[0] - b[0]) % p
        return x, (slope * (a[0] - x) - a[1]) % p

    def mul(self, k, point):
        result, addend = None, point
        while k:
            if k & 1:
                result = self.add(result, addend)
            addend = self.add(addend, addend)
            k >>= 1
        return result

    def neg(self, q):
        return q[0], (self.p - q[1]) % self.p

    def bits2int(self, digest):
        e = int.from_bytes(digest, "big")
        excess = 8 * len(digest) - self.n.bit_length()
        return e >> excess if excess > 0 else e

    def verify(self, q, digest, r, s):
        """SEC 1 §4.1.4, the reference the C code is compared with."""
        n = self.n
        if not self.on_curve(q) or not (0 < r < n and 0 < s < n):
            return False
        w = pow(s, -1, n)
        e = self.bits2int(digest) % n
        big_r = self.add(self.mul(e * w % n, self.g), self.mul(r * w % n, q))
        return big_r is not None and big_r[0] % n == r

    def sign(self, d, digest, k=None):
        n = self.n
        e = self.bits2int(digest) % n
        while True:
            nonce = k or secrets.randbelow(n - 1) + 1
            r = self.mul(nonce, self.g)[0] % n
            s = pow(nonce, -1, n) * (e + r * d) % n
            if r and s:
                return r, s
            assert k is None


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "ecdsa-edge-cases.json")
    cases = []
    for name in CURVES:
        c = Curve(name)
        n, p, size = c.n, c.p, c.size
        digest_length = {"P-256": 32, "P-384": 48, "P-521": 64}[name]

        def add(q, digest, r, s, comment, *, r_len=None, valid=None, raw_key=None):
            signature = r.to_bytes(r_len or size, "big") + s.to_bytes(r_len or size, "big")
            expected = c.verify(q, digest, r, s) if raw_key is None else False
            assert valid is None or valid == expected, f"{name} {comment}: reference says {expected}"
            if raw_key is None and c.on_curve(q) and 0 < r < n and 0 < s < n and len(digest) in PREHASHED:
                key = ec.EllipticCurvePublicNumbers(q[0], q[1], c.crypto).public_key()
                try:
                    key.verify(encode_dss_signature(r, s), digest, ec.ECDSA(Prehashed(PREHASHED[len(digest)])))
                    accepted = True
                except InvalidSignature:
                    accepted = False
                assert accepted == expected, f"{name} {comment}: cryptography says {accepted}"
            x, y = raw_key if raw_key is not None else (q[0].to_bytes(size, "big"), q[1].to_bytes(size, "big"))
            cases.append({"curve": name, "x": x.hex(), "y": y.hex(), "digest": digest.hex(), "signature": signature.hex(),
                          "valid": expected, "comment": comment})

        d = secrets.randbelow(n - 1) + 1
        q = c.mul(d, c.g)
        digest = secrets.token_bytes(digest_length)
        r, s = c.sign(d, digest)
        add(q, digest, r, s, "valid", valid=True)
        add(q, digest, r, n - s, "high s (n - s)", valid=True)

        # x_R >= n: take a point R with x in n...p-1, then the key Q = (s R - e G) / r for r = x_R - n.
        # Both primes are 3 mod 4: a square root is rhs^((p + 1) / 4).
        x = n + 1
        while True:
            rhs = (x ** 3 - 3 * x + c.b) % p
            y = pow(rhs, (p + 1) // 4, p)
            if y * y % p == rhs:
                break
            x += 1
        big_r = (x, y)
        e_digest = secrets.token_bytes(digest_length)
        e = c.bits2int(e_digest) % n
        r_small, s_any = x - n, secrets.randbelow(n - 1) + 1
        # R = (e G + r Q) / s  =>  Q = (s R - e G) / r
        q_chosen = c.mul(pow(r_small, -1, n), c.add(c.mul(s_any, big_r), c.neg(c.mul(e, c.g))))
        add(q_chosen, e_digest, r_small, s_any, "x_R >= n, r = x_R - n", valid=True)
        add(q_chosen, e_digest, r_small, n - s_any, "x_R >= n, r = x_R - n, high s: R is -R, same x", valid=True)
        if x < 2 ** (8 * size):
            add(q_chosen, e_digest, x, s_any, "x_R >= n, r = x_R (not reduced, out of range)", valid=False)

        # u1 = 0: e ≡ 0 mod n, the sum is u2 Q alone.
        for label, zero_digest in (("a zero digest", bytes(digest_length)),
                                   ("a digest equal to n", n.to_bytes(size, "big")[-digest_length:] if n.bit_length() <= 8 * digest_length else None)):
            if zero_digest is None:
                continue
            r0, s0 = c.sign(d, zero_digest)
            add(q, zero_digest, r0, s0, f"u1 = 0: {label}", valid=True)
        # Q = G and u1 = u2 (e = r): the shared sum G + Q is a doubling, and the signature is real.
        # Q = -G and e = r: u1 G + u2 Q = (u1 - u2) G is infinity whatever s is. A digest of the
        # coordinate length whose leftmost bits are r gives e = r.
        k = secrets.randbelow(n - 1) + 1
        rk = c.mul(k, c.g)[0] % n
        e_equal = (rk << (8 * size - n.bit_length())).to_bytes(size, "big")
        rr, ss = c.sign(1, e_equal, k)
        add(c.g, e_equal, rr, ss, "Q = G, e = r: u1 G + u2 Q is a doubling", valid=True)
        add(c.neg(c.g), e_equal, rk, secrets.randbelow(n - 1) + 1, "Q = -G, e = r: u1 G + u2 Q is infinity", valid=False)
        # R at infinity for a random key: r = -e / d mod n.
        add(q, digest, (-c.bits2int(digest) * pow(d, -1, n)) % n, secrets.randbelow(n - 1) + 1, "R is infinity (r = -e / d)", valid=False)

        # Boundary r and s.
        add(q, digest, 1, s, "r = 1", valid=False)
        add(q, digest, r, 1, "s = 1", valid=False)
        add(q, digest, n - 1, s, "r = n - 1", valid=False)
        add(q, digest, r, n - 1, "s = n - 1", valid=False)
        # s = 1 signed for real: e + r d = k, i.e. the nonce k with s = 1 needs d = (k - e) / r.
        k = secrets.randbelow(n - 1) + 1
        r1 = c.mul(k, c.g)[0] % n
        d1 = (k - c.bits2int(digest)) * pow(r1, -1, n) % n
        add(c.mul(d1, c.g), digest, r1, 1, "s = 1, signed for real", valid=True)
        for comment, rv, sv in (("r = n", n, s), ("s = n", r, n), ("r = n + 1", n + 1, s), ("s = n + 1", r, n + 1),
                                ("r = 0", 0, s), ("s = 0", r, 0), ("r = s = 0", 0, 0),
                                ("r = 2^(8 len) - 1", 2 ** (8 * size) - 1, s), ("s = 2^(8 len) - 1", r, 2 ** (8 * size) - 1)):
            if rv < 2 ** (8 * size) and sv < 2 ** (8 * size):
                add(q, digest, rv, sv, comment, valid=False)

        # Digests of other lengths: truncated to n's bit length when longer, taken whole when shorter.
        # (IdentityFlow's P-256 verifier takes SHA-256 digests only: 32 bytes.)
        for length in ((32,) if name == "P-256" else (32, 64, 66, 80)):
            other = secrets.token_bytes(length)
            rl, sl = c.sign(d, other)
            add(q, other, rl, sl, f"a {length}-byte digest, signed over its leftmost {min(8 * length, n.bit_length())} bits", valid=True)
            add(q, other[:-1] + bytes([other[-1] ^ 1]), rl, sl,
                f"a {length}-byte digest with its last bit flipped" + (" (beyond n's bits: still valid)" if 8 * length > n.bit_length() else ""))

        # Keys that are not points of the curve.
        xb, yb = q[0].to_bytes(size, "big"), q[1].to_bytes(size, "big")
        add(q, digest, r, s, "key: y + 1 (off the curve)", raw_key=(xb, ((q[1] + 1) % p).to_bytes(size, "big")))
        add(q, digest, r, s, "key: (0, 0), an encoding of infinity", raw_key=(bytes(size), bytes(size)))
        add(q, digest, r, s, "key: x = p", raw_key=(p.to_bytes(size, "big"), yb))
        if q[1] + p < 2 ** (8 * size):
            add(q, digest, r, s, "key: y + p (the same point mod p, not below p)", raw_key=(xb, (q[1] + p).to_bytes(size, "big")))
        add(c.neg(q), digest, r, s, "key: -Q (on the curve, not the signer's)", valid=False)

    with open(out, "w") as handle:
        json.dump({"generator": "Tests/Fixtures/crypto/make_ecdsa_edge_cases.py", "cases": cases}, handle, indent=0)
        handle.write("\n")


if __name__ == "__main__":
    main()
