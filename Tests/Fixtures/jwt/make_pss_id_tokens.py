#!/usr/bin/env python3
"""Generate the PS256 / PS384 / PS512 ID token vectors (RSASSA-PSS, RFC 7518 §3.5: MGF1 with the
alg's hash, salt as long as the hash), as FAPI providers (Keycloak, Okta, Authlib when the client
registers id_token_signed_response_alg PS256) sign them.

Usage: make_pss_id_tokens.py [OUTPUT.json]   (default: pss-id-tokens.json next to this script)

A file of its own so that id-tokens.json, whose keys are random too, stays as it is. Same issuer,
client id, nonce and times as make_id_tokens.py. Writes an RSA key whose JWK names no alg (p1: any
RS or PS alg), one whose JWK names PS256 (p2), and compact ID tokens. The keys are random: every run
changes every key and token, not what they mean. Requires the `cryptography` package.
"""
import hashlib
import json
import os
import sys

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from make_id_tokens import CLIENT, IAT, ISSUER, NONCE, at_hash, b64url, claims, encode, jwk, rs256, write_vectors

HASHES = {"256": hashes.SHA256, "384": hashes.SHA384, "512": hashes.SHA512}


def ps(key, header, claims, bits=None, salt_length=None):
    """RSASSA-PSS with the hash of `bits` (the header's alg by default), MGF1 with the same hash and
    a salt as long as the hash unless `salt_length` says otherwise."""
    hash_type = HASHES[bits or header["alg"][2:]]
    signing_input = encode(header, claims)
    salt = hash_type.digest_size if salt_length is None else salt_length
    pss = padding.PSS(mgf=padding.MGF1(hash_type()), salt_length=salt)
    return signing_input + "." + b64url(key.sign(signing_input.encode(), pss, hash_type()))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "pss-id-tokens.json")
    p1 = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    p2 = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    impostor = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    h256, h384, h512 = ({"alg": f"PS{bits}", "typ": "JWT", "kid": "p1"} for bits in ("256", "384", "512"))
    ps256_valid = ps(p1, h256, claims())
    tampered_payload = b64url(json.dumps(claims(sub="user-2"), separators=(",", ":")).encode())
    tokens = {
        # p1's JWK names no alg: PS256, PS384 and PS512 verify, by kid or as the only key.
        "ps256_valid": ps256_valid,
        "ps384_valid": ps(p1, h384, claims()),
        "ps512_valid": ps(p1, h512, claims()),
        "ps256_no_kid": ps(p1, {"alg": "PS256", "typ": "JWT"}, claims()),
        # at_hash of the access token "at-1" by the alg's hash, and by another hash.
        "ps256_at_hash": ps(p1, h256, claims(at_hash=at_hash(hashlib.sha256))),
        "ps384_at_hash": ps(p1, h384, claims(at_hash=at_hash(hashlib.sha384))),
        "ps512_at_hash": ps(p1, h512, claims(at_hash=at_hash(hashlib.sha512))),
        "ps512_at_hash_sha256": ps(p1, h512, claims(at_hash=at_hash(hashlib.sha256))),
        # Bad signatures: another key, a payload changed after signing.
        "ps256_wrong_key": ps(impostor, h256, claims()),
        "ps256_tampered": ps256_valid.split(".")[0] + "." + tampered_payload + "." + ps256_valid.split(".")[2],
        # Salt lengths JWA does not allow (it requires the hash's length).
        "ps256_salt_0": ps(p1, h256, claims(), salt_length=0),
        "ps256_salt_max": ps(p1, h256, claims(), salt_length=padding.PSS.MAX_LENGTH),
        "ps384_salt_32": ps(p1, h384, claims(), salt_length=32),
        # The header names one scheme or hash, the signature uses another.
        "ps256_signed_rs256": rs256(p1, h256, claims()),
        "rs256_signed_ps256": ps(p1, {"alg": "RS256", "typ": "JWT", "kid": "p1"}, claims(), bits="256"),
        "ps384_signed_ps512": ps(p1, h384, claims(), bits="512"),
        # p2's JWK names PS256: it verifies PS256 only.
        "ps256_p2": ps(p2, {"alg": "PS256", "kid": "p2"}, claims()),
        "ps384_p2": ps(p2, {"alg": "PS384", "kid": "p2"}, claims()),
        "rs256_p2": rs256(p2, {"alg": "RS256", "kid": "p2"}, claims()),
    }
    write_vectors(out, "Tests/Fixtures/jwt/make_pss_id_tokens.py", {
        "jwks_p1": [jwk(p1, "p1", None)],
        "jwks_p1_p2": [jwk(p1, "p1", None), jwk(p2, "p2", "PS256")],
    }, tokens)


if __name__ == "__main__":
    main()
