#!/usr/bin/env python3
"""Generate the ID token vectors of HTTPIdentityService's validation tests.

Usage: make_id_tokens.py [OUTPUT.json]   (default: id-tokens.json next to this script)

Writes two RS256 signing keys (k1, k2) as JWKs, a third key (k1's impostor, never published), an
ES256 key (e1, P-256) with its own impostor, a P-384 key the client must pass over, and
compact ID tokens for issuer https://issuer.test, client id client-1, nonce nonce-1, issued at
1700000000. The tests validate them at "now" = 1700000100 with a 60 s clock skew.
Requires the `cryptography` package.
"""
import base64
import hashlib
import hmac
import json
import os
import sys

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def jwk(key, kid):
    numbers = key.public_key().public_numbers()
    n = numbers.n.to_bytes((numbers.n.bit_length() + 7) // 8, "big")
    e = numbers.e.to_bytes((numbers.e.bit_length() + 7) // 8, "big")
    return {"kty": "RSA", "use": "sig", "alg": "RS256", "kid": kid, "n": b64url(n), "e": b64url(e)}


def ec_jwk(key, kid, crv="P-256", alg="ES256", size=32):
    numbers = key.public_key().public_numbers()
    return {"kty": "EC", "crv": crv, "use": "sig", "alg": alg, "kid": kid,
            "x": b64url(numbers.x.to_bytes(size, "big")), "y": b64url(numbers.y.to_bytes(size, "big"))}


def encode(header, claims):
    return b64url(json.dumps(header, separators=(",", ":")).encode()) + "." + b64url(json.dumps(claims, separators=(",", ":")).encode())


def rs256(key, header, claims):
    signing_input = encode(header, claims)
    signature = key.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256())
    return signing_input + "." + b64url(signature)


def es256(key, header, claims, der=False):
    """JWS ES256 (RFC 7518 §3.4): the signature is r ‖ s, 32 bytes each; `der` signs as X.509 does instead."""
    signing_input = encode(header, claims)
    signature = key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256()))
    if not der:
        r, s = decode_dss_signature(signature)
        signature = r.to_bytes(32, "big") + s.to_bytes(32, "big")
    return signing_input + "." + b64url(signature)


def es384(key, header, claims):
    signing_input = encode(header, claims)
    r, s = decode_dss_signature(key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA384())))
    return signing_input + "." + b64url(r.to_bytes(48, "big") + s.to_bytes(48, "big"))


ISSUER, CLIENT, NONCE, IAT = "https://issuer.test", "client-1", "nonce-1", 1700000000
BASE = {"iss": ISSUER, "sub": "user-1", "aud": CLIENT, "iat": IAT, "exp": IAT + 3600, "nonce": NONCE,
        "email": "alice@example.test", "name": "Alice"}


def claims(**changes):
    result = dict(BASE)
    for name, value in changes.items():
        if value is None:
            result.pop(name, None)
        else:
            result[name] = value
    return result


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "id-tokens.json")
    k1 = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    k2 = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    impostor = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    k3 = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    jwk3 = jwk(k3, None)
    del jwk3["kid"]
    h1 = {"alg": "RS256", "typ": "JWT", "kid": "k1"}
    valid = rs256(k1, h1, claims())
    header_part, payload_part, signature_part = valid.split(".")
    tampered_payload = b64url(json.dumps(claims(sub="user-2"), separators=(",", ":")).encode())
    jwk1 = jwk(k1, "k1")
    e1 = ec.generate_private_key(ec.SECP256R1())
    e1_impostor = ec.generate_private_key(ec.SECP256R1())
    p384 = ec.generate_private_key(ec.SECP384R1())
    he1 = {"alg": "ES256", "typ": "JWT", "kid": "e1"}
    hs_input = encode({"alg": "HS256", "typ": "JWT", "kid": "k1"}, claims())
    hs_signature = hmac.new(json.dumps(jwk1, separators=(",", ":")).encode(), hs_input.encode(), hashlib.sha256).digest()
    tokens = {
        "valid": rs256(k1, h1, claims()),
        "valid_k2": rs256(k2, {"alg": "RS256", "kid": "k2"}, claims()),
        "unknown_kid": rs256(k2, {"alg": "RS256", "kid": "k9"}, claims()),
        "wrong_key": rs256(impostor, h1, claims()),
        "tampered": header_part + "." + tampered_payload + "." + signature_part,
        "wrong_iss": rs256(k1, h1, claims(iss="https://evil.test")),
        "wrong_aud": rs256(k1, h1, claims(aud="client-2")),
        "wrong_nonce": rs256(k1, h1, claims(nonce="nonce-2")),
        "no_nonce": rs256(k1, h1, claims(nonce=None)),
        "expired": rs256(k1, h1, claims(iat=IAT - 3600, exp=IAT + 30)),
        "expired_within_skew": rs256(k1, h1, claims(iat=IAT - 3600, exp=IAT + 50)),
        "nbf_future": rs256(k1, h1, claims(nbf=IAT + 1000)),
        "iat_future": rs256(k1, h1, claims(iat=IAT + 1000)),
        "multi_aud_no_azp": rs256(k1, h1, claims(aud=[CLIENT, "other"])),
        "multi_aud_azp": rs256(k1, h1, claims(aud=[CLIENT, "other"], azp=CLIENT)),
        "wrong_azp": rs256(k1, h1, claims(azp="other")),
        "alg_none": encode({"alg": "none", "typ": "JWT"}, claims()) + ".",
        "hs256": hs_input + "." + b64url(hs_signature),
        "missing_sub": rs256(k1, h1, claims(sub=None)),
        # Canonically equivalent to "K1" (Kelvin sign), not the same bytes: validated against nonce "K1".
        "kelvin_nonce": rs256(k1, h1, claims(nonce="\u212a1")),
        "crit": rs256(k1, {"alg": "RS256", "kid": "k1", "crit": ["exp"], "exp": IAT}, claims()),
        # at_hash of the access token "at-1": the left half of its SHA-256, base64url.
        "at_hash": rs256(k1, h1, claims(at_hash=b64url(hashlib.sha256(b"at-1").digest()[:16]))),
        "at_hash_wrong": rs256(k1, h1, claims(at_hash=b64url(hashlib.sha256(b"at-2").digest()[:16]))),
        # Signed by the JWKS key that has no kid, naming an invented kid.
        "invented_kid": rs256(k3, {"alg": "RS256", "kid": "#1"}, claims()),
        # ES256, validated against jwks_k1_e1.
        "es256_valid": es256(e1, he1, claims()),
        "es256_no_kid": es256(e1, {"alg": "ES256", "typ": "JWT"}, claims()),
        "es256_wrong_key": es256(e1_impostor, he1, claims()),
        "es256_tampered": es256(e1, he1, claims()).split(".")[0] + "." + tampered_payload + "." + es256(e1, he1, claims()).split(".")[2],
        "es256_der_signature": es256(e1, he1, claims(), der=True),
        "es256_wrong_iss": es256(e1, he1, claims(iss="https://evil.test")),
        # The algorithm and the key the kid names disagree: an EC key for RS256, an RSA key for ES256.
        "es256_rsa_kid": es256(e1, {"alg": "ES256", "kid": "k1"}, claims()),
        "rs256_ec_kid": rs256(k1, {"alg": "RS256", "kid": "e1"}, claims()),
        # Signed by the P-384 key the JWKS lists, which the client does not use.
        "es384": es384(p384, {"alg": "ES384", "kid": "p384"}, claims()),
    }
    document = {
        "generator": "Tests/Fixtures/jwt/make_id_tokens.py",
        "issuer": ISSUER, "client_id": CLIENT, "nonce": NONCE, "now": IAT + 100, "clock_skew": 60,
        "jwks_k1": {"keys": [jwk1]},
        "jwks_k1_k2": {"keys": [jwk1, jwk(k2, "k2")]},
        "jwks_k1_nokid": {"keys": [jwk1, jwk3]},
        "jwks_k1_e1": {"keys": [jwk1, ec_jwk(e1, "e1"), ec_jwk(p384, "p384", crv="P-384", alg="ES384", size=48)]},
        "tokens": tokens,
    }
    with open(out, "w") as handle:
        json.dump(document, handle, indent=1, sort_keys=True)
        handle.write("\n")


if __name__ == "__main__":
    main()
