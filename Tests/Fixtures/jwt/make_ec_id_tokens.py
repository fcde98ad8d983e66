#!/usr/bin/env python3
"""Generate the ES384 / ES512 ID token vectors (ECDSA on P-384 with SHA-384 and on P-521 with
SHA-512, RFC 7518 §3.4: the signature is r || s, 48 or 66 bytes each), as Keycloak's
ecdsa-generated keys, Ping, ForgeRock and Authlib (Canaille, when a client registers
id_token_signed_response_alg ES384) sign them.

Usage: make_ec_id_tokens.py [OUTPUT.json]   (default: ec-id-tokens.json next to this script)

A file of its own so that id-tokens.json, whose keys are random too, stays as it is. Same issuer,
client id, nonce and times as make_id_tokens.py. Writes a P-384 key whose JWK names ES384 (q1), a
P-521 key whose JWK names no alg (q2), a P-256 key (e3, ES256), another P-384 key (q3), JWKS sets
of them, JWKS entries at the edge (off the curve, a coordinate not below p, a secp256k1 key,
all passed over; a point with a tiny x, taken), and compact ID tokens. The keys are random: every run changes every key and
token, not what they mean. Requires the `cryptography` package.
"""
import base64
import hashlib
import json
import os
import sys

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature

from make_id_tokens import at_hash, b64url, claims, ec_jwk, encode, es256, write_vectors

# Curve, coordinate size, field prime, hash of the JWS algorithm.
CURVES = {"ES384": (ec.SECP384R1(), 48, 2**384 - 2**128 - 2**96 + 2**32 - 1, hashes.SHA384),
          "ES512": (ec.SECP521R1(), 66, 2**521 - 1, hashes.SHA512)}


def es(key, header, claims, alg=None, hash=None, values=None, der=False):
    """JWS ES384 / ES512 by `key`: alg is the header's unless given, its hash unless `hash` is;
    `values(r, s, n)` replaces r and s; `der` keeps the DER form."""
    curve, size, _, hash_type = CURVES[alg or header["alg"]]
    signing_input = encode(header, claims)
    der_signature = key.sign(signing_input.encode(), ec.ECDSA((hash or hash_type)()))
    r, s = decode_dss_signature(der_signature)
    if der:
        assert len(der_signature) != 2 * size, "the DER form happens to be as long as r || s"
        return signing_input + "." + b64url(der_signature)
    if values:
        r, s = values(r, s, curve.group_order)
    return signing_input + "." + b64url(r.to_bytes(size, "big") + s.to_bytes(size, "big"))


def jwk(key, kid, alg, named=True):
    """An EC JWK of `alg`'s curve, naming `alg` unless `named` is false."""
    curve, size, _, _ = CURVES[alg]
    result = ec_jwk(key, kid, crv=f"P-{curve.key_size}", alg=alg, size=size)
    if not named:
        del result["alg"]
    return result


def point_with_small_x(curve, p, b):
    """A point (x, y) of a curve with p = 3 mod 4 and the smallest x, found by square roots."""
    x = 0
    while True:
        value = (x ** 3 - 3 * x + b) % p
        y = pow(value, (p + 1) // 4, p)
        if y * y % p == value:
            return x, y
        x += 1


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "ec-id-tokens.json")
    q1, q1_impostor, q3 = (ec.generate_private_key(ec.SECP384R1()) for _ in range(3))
    q2, q2_impostor = (ec.generate_private_key(ec.SECP521R1()) for _ in range(2))
    e3 = ec.generate_private_key(ec.SECP256R1())
    k1 = ec.generate_private_key(ec.SECP256K1())
    h384, h512 = {"alg": "ES384", "typ": "JWT", "kid": "q1"}, {"alg": "ES512", "typ": "JWT", "kid": "q2"}
    es384_valid, es512_valid = es(q1, h384, claims()), es(q2, h512, claims())
    tampered_payload = b64url(json.dumps(claims(sub="user-2"), separators=(",", ":")).encode())

    def tampered(token):
        header, _, signature = token.split(".")
        return header + "." + tampered_payload + "." + signature

    tokens = {
        # q1 (its JWK names ES384) and q2 (its JWK names no alg: ES512, the one of its curve), by kid or as the only key.
        "es384_valid": es384_valid,
        "es512_valid": es512_valid,
        "es384_no_kid": es(q1, {"alg": "ES384", "typ": "JWT"}, claims()),
        "es512_no_kid": es(q2, {"alg": "ES512", "typ": "JWT"}, claims()),
        "es384_wrong_iss": es(q1, h384, claims(iss="https://evil.test")),
        # High s: n - s verifies as well as s (ECDSA has no low-s rule; JWS adds none).
        "es384_high_s": es(q1, h384, claims(), values=lambda r, s, n: (r, n - s)),
        "es512_high_s": es(q2, h512, claims(), values=lambda r, s, n: (r, n - s)),
        # at_hash of the access token "at-1" by the alg's hash, and by another hash.
        "es384_at_hash": es(q1, h384, claims(at_hash=at_hash(hashlib.sha384))),
        "es512_at_hash": es(q2, h512, claims(at_hash=at_hash(hashlib.sha512))),
        "es384_at_hash_sha256": es(q1, h384, claims(at_hash=at_hash(hashlib.sha256))),
        "es512_at_hash_sha384": es(q2, h512, claims(at_hash=at_hash(hashlib.sha384))),
        # Bad signatures: another key, a payload changed after signing, the DER form.
        "es384_wrong_key": es(q1_impostor, h384, claims()),
        "es512_wrong_key": es(q2_impostor, h512, claims()),
        "es384_tampered": tampered(es384_valid),
        "es512_tampered": tampered(es512_valid),
        "es384_der": es(q1, h384, claims(), der=True),
        "es512_der": es(q2, h512, claims(), der=True),
        # r or s outside 1...n-1: zero, n, and (P-521's 66 bytes hold it) the valid value plus n.
        "es384_r_zero": es(q1, h384, claims(), values=lambda r, s, n: (0, s)),
        "es384_s_zero": es(q1, h384, claims(), values=lambda r, s, n: (r, 0)),
        "es512_r_zero": es(q2, h512, claims(), values=lambda r, s, n: (0, s)),
        "es512_s_zero": es(q2, h512, claims(), values=lambda r, s, n: (r, 0)),
        "es384_r_n": es(q1, h384, claims(), values=lambda r, s, n: (n, s)),
        "es384_s_n": es(q1, h384, claims(), values=lambda r, s, n: (r, n)),
        "es512_r_n": es(q2, h512, claims(), values=lambda r, s, n: (n, s)),
        "es512_s_n": es(q2, h512, claims(), values=lambda r, s, n: (r, n)),
        "es512_r_plus_n": es(q2, h512, claims(), values=lambda r, s, n: (r + n, s)),
        "es512_s_plus_n": es(q2, h512, claims(), values=lambda r, s, n: (r, s + n)),
        # The header names one algorithm, the signature is another's: an ES256 signature (by e3,
        # over this very payload) under an ES384 header naming q1, and one naming e3 itself;
        # SHA-512 under an ES384 header; an ES384 signature by q1 under an ES512 header naming q1.
        # (The client refuses a kid naming a key of another curve before it checks a signature;
        # these test the signature check itself.)
        "es384_signed_es256": es256(e3, h384, claims()),
        "es384_e3_kid": es256(e3, {"alg": "ES384", "typ": "JWT", "kid": "e3"}, claims()),
        "es384_signed_sha512": es(q1, h384, claims(), hash=hashes.SHA512),
        "es512_q1_kid": es(q1, {"alg": "ES512", "typ": "JWT", "kid": "q1"}, claims(), alg="ES384"),
        # ES512's hash, SHA-512, but q1's curve, P-384: valid ECDSA, not ES512.
        "es512_q1_sha512": es(q1, {"alg": "ES512", "typ": "JWT", "kid": "q1"}, claims(), alg="ES384", hash=hashes.SHA512),
        "es384_q2_kid": es(q2, {"alg": "ES384", "typ": "JWT", "kid": "q2"}, claims(), alg="ES512"),
        "es256_q1_kid": es256(e3, {"alg": "ES256", "typ": "JWT", "kid": "q1"}, claims()),
        # ES256 by e3, which the JWKS lists next to q1 and q2.
        "es256_e3": es256(e3, {"alg": "ES256", "typ": "JWT", "kid": "e3"}, claims()),
    }

    # Entries the client must pass over: q1 and q2 moved off their curves (y + 1), q2 with y + p
    # (the same point mod p, a coordinate not below p: 66 bytes hold it), a P-384 point with the
    # smallest x, written x + p (48 bytes hold it as x is tiny), and a secp256k1 key. And one it
    # takes: that P-384 point written as it is (q-small-x).
    def moved(key, kid, alg, change):
        entry = jwk(key, kid, alg)
        _, size, p, _ = CURVES[alg]
        numbers = key.public_key().public_numbers()
        x, y = change(numbers.x, numbers.y, p)
        entry["x"], entry["y"] = b64url(x.to_bytes(size, "big")), b64url(y.to_bytes(size, "big"))
        return entry

    p384 = CURVES["ES384"][2]
    g = ec.derive_private_key(1, ec.SECP384R1()).public_key().public_numbers()
    b384 = (g.y * g.y - g.x ** 3 + 3 * g.x) % p384
    small_x, small_y = point_with_small_x(ec.SECP384R1(), p384, b384)
    # The point itself is on the curve (cryptography takes it): only its encoding is out of range.
    ec.EllipticCurvePublicNumbers(small_x, small_y, ec.SECP384R1()).public_key()
    edge_cases = [
        moved(q1, "q1-off-curve", "ES384", lambda x, y, p: (x, (y + 1) % p)),
        moved(q2, "q2-off-curve", "ES512", lambda x, y, p: (x, (y + 1) % p)),
        moved(q2, "q2-y-plus-p", "ES512", lambda x, y, p: (x, y + p)),
        {"kty": "EC", "crv": "P-384", "use": "sig", "alg": "ES384", "kid": "q-x-plus-p",
         "x": b64url((small_x + p384).to_bytes(48, "big")), "y": b64url(small_y.to_bytes(48, "big"))},
        {"kty": "EC", "crv": "P-384", "use": "sig", "alg": "ES384", "kid": "q-small-x",
         "x": b64url(small_x.to_bytes(48, "big")), "y": b64url(small_y.to_bytes(48, "big"))},
        ec_jwk(k1, "k256", crv="secp256k1", alg="ES256K"),
    ]
    for entry in edge_cases[:2]:
        x, y = (int.from_bytes(base64url_decode(entry[c]), "big") for c in "xy")
        try:
            ec.EllipticCurvePublicNumbers(x, y, ec.SECP384R1() if entry["crv"] == "P-384" else ec.SECP521R1()).public_key()
            raise AssertionError(f"{entry['kid']} is on the curve")
        except ValueError:
            pass

    write_vectors(out, "Tests/Fixtures/jwt/make_ec_id_tokens.py", {
        "jwks_ec": [jwk(q1, "q1", "ES384"), jwk(q2, "q2", "ES512", named=False), ec_jwk(e3, "e3")],
        "jwks_ec_two_p384": [jwk(q1, "q1", "ES384"), jwk(q2, "q2", "ES512", named=False), jwk(q3, "q3", "ES384")],
        "jwks_edge_cases": edge_cases,
    }, tokens)


def base64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


if __name__ == "__main__":
    main()
