#!/usr/bin/env python3
"""Generate the ID token vectors of HTTPIdentityService's validation tests.

Usage: make_id_tokens.py [OUTPUT.json]   (default: id-tokens.json next to this script)

Writes two RS256 signing keys (k1, k2) as JWKs, a third key (k1's impostor, never published), an
ES256 key (e1, P-256) with its own impostor, a P-384 key (ES384), an RSA key whose JWK names no alg
(r1, as Canaille publishes it: good for any RS or PS alg), an RSA key whose JWK names RS512 (r2),
and compact ID tokens for issuer https://issuer.test, client id client-1, nonce nonce-1, issued at
1700000000. The tests validate them at "now" = 1700000100 with a 60 s clock skew. The keys are
random: every run changes every key and token, not what they mean.
The PS256 / PS384 / PS512 vectors come from make_pss_id_tokens.py, the ES384 / ES512 ones from
make_ec_id_tokens.py, each in a file of its own.
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


def jwk(key, kid, alg="RS256"):
    """An RSA JWK; alg None leaves the member out."""
    numbers = key.public_key().public_numbers()
    n = numbers.n.to_bytes((numbers.n.bit_length() + 7) // 8, "big")
    e = numbers.e.to_bytes((numbers.e.bit_length() + 7) // 8, "big")
    result = {"kty": "RSA", "use": "sig", "alg": alg, "kid": kid, "n": b64url(n), "e": b64url(e)}
    if alg is None:
        del result["alg"]
    return result


def ec_jwk(key, kid, crv="P-256", alg="ES256", size=32):
    numbers = key.public_key().public_numbers()
    return {"kty": "EC", "crv": crv, "use": "sig", "alg": alg, "kid": kid,
            "x": b64url(numbers.x.to_bytes(size, "big")), "y": b64url(numbers.y.to_bytes(size, "big"))}


def encode(header, claims):
    return b64url(json.dumps(header, separators=(",", ":")).encode()) + "." + b64url(json.dumps(claims, separators=(",", ":")).encode())


def rs256(key, header, claims, hash=None):
    """RSASSA-PKCS1-v1_5 with `hash` (SHA-256 by default) whatever the header's alg says."""
    signing_input = encode(header, claims)
    signature = key.sign(signing_input.encode(), padding.PKCS1v15(), hash or hashes.SHA256())
    return signing_input + "." + b64url(signature)


def rs384(key, header, claims):
    return rs256(key, header, claims, hashes.SHA384())


def rs512(key, header, claims):
    return rs256(key, header, claims, hashes.SHA512())


def ps256(key, header, claims):
    signing_input = encode(header, claims)
    pss = padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=32)
    return signing_input + "." + b64url(key.sign(signing_input.encode(), pss, hashes.SHA256()))


def at_hash(function, access_token=b"at-1"):
    """OpenID Connect Core §3.1.3.6: the left half of the alg's hash of the access token, base64url."""
    digest = function(access_token).digest()
    return b64url(digest[:len(digest) // 2])


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


def write_vectors(out, generator, jwks, tokens):
    """Writes the vectors to `out`: the shared issuer, client id, nonce and times, the JWKS sets
    (name to keys) and the tokens."""
    document = {
        "generator": generator,
        "issuer": ISSUER, "client_id": CLIENT, "nonce": NONCE, "now": IAT + 100, "clock_skew": 60,
        "tokens": tokens,
    }
    document.update({name: {"keys": keys} for name, keys in jwks.items()})
    with open(out, "w") as handle:
        json.dump(document, handle, indent=1, sort_keys=True)
        handle.write("\n")


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
    # r1's JWK names no alg (RS256, RS384 and RS512); r2's names RS512 only.
    r1 = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    r2 = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    hr384, hr512 = {"alg": "RS384", "typ": "JWT", "kid": "r1"}, {"alg": "RS512", "typ": "JWT", "kid": "r1"}
    rs512_valid = rs512(r1, hr512, claims())
    hs512_input = encode({"alg": "HS512", "typ": "JWT", "kid": "r1"}, claims())
    hs512_signature = hmac.new(json.dumps(jwk(r1, "r1", None), separators=(",", ":")).encode(), hs512_input.encode(), hashlib.sha512).digest()
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
        # Signed by the P-384 key jwks_k1_e1 lists (ES384).
        "es384": es384(p384, {"alg": "ES384", "kid": "p384"}, claims()),
        # RS384 and RS512 by r1 (no alg in its JWK), validated against jwks_r1 and jwks_k1_r1_r2.
        "rs384_valid": rs384(r1, hr384, claims()),
        "rs512_valid": rs512_valid,
        "rs256_r1": rs256(r1, {"alg": "RS256", "typ": "JWT", "kid": "r1"}, claims()),
        "rs256_no_kid": rs256(r1, {"alg": "RS256", "typ": "JWT"}, claims()),
        "rs384_no_kid": rs384(r1, {"alg": "RS384", "typ": "JWT"}, claims()),
        "rs512_no_kid": rs512(r1, {"alg": "RS512", "typ": "JWT"}, claims()),
        "rs384_wrong_key": rs384(impostor, hr384, claims()),
        "rs512_wrong_key": rs512(impostor, hr512, claims()),
        "rs512_tampered": rs512_valid.split(".")[0] + "." + tampered_payload + "." + rs512_valid.split(".")[2],
        # The header names one hash, the signature uses another.
        "rs512_signed_rs256": rs256(r1, hr512, claims()),
        "rs384_signed_rs512": rs512(r1, hr384, claims()),
        # r2's JWK names RS512: it verifies RS512 only.
        "rs512_r2": rs512(r2, {"alg": "RS512", "kid": "r2"}, claims()),
        "rs256_r2": rs256(r2, {"alg": "RS256", "kid": "r2"}, claims()),
        # k1's JWK names RS256: an RS512 token naming it is refused before its signature is checked.
        "rs512_k1": rs512(k1, {"alg": "RS512", "kid": "k1"}, claims()),
        # An ES256 token naming r1, an RSA key.
        "es256_r1_kid": es256(e1, {"alg": "ES256", "kid": "r1"}, claims()),
        # at_hash of "at-1" by the alg's hash, and by another hash than the alg's.
        "rs384_at_hash": rs384(r1, hr384, claims(at_hash=at_hash(hashlib.sha384))),
        "rs512_at_hash": rs512(r1, hr512, claims(at_hash=at_hash(hashlib.sha512))),
        "rs512_at_hash_sha256": rs512(r1, hr512, claims(at_hash=at_hash(hashlib.sha256))),
        "rs384_at_hash_sha512": rs384(r1, hr384, claims(at_hash=at_hash(hashlib.sha512))),
        # PS256 by r1 (valid: an RSA key without alg verifies PS*, whose vectors are in pss-id-tokens.json),
        # and HS512 keyed with r1's JWK (never accepted).
        "ps256": ps256(r1, {"alg": "PS256", "kid": "r1"}, claims()),
        "hs512": hs512_input + "." + b64url(hs512_signature),
    }
    write_vectors(out, "Tests/Fixtures/jwt/make_id_tokens.py", {
        "jwks_k1": [jwk1],
        "jwks_k1_k2": [jwk1, jwk(k2, "k2")],
        "jwks_k1_nokid": [jwk1, jwk3],
        "jwks_k1_e1": [jwk1, ec_jwk(e1, "e1"), ec_jwk(p384, "p384", crv="P-384", alg="ES384", size=48)],
        "jwks_r1": [jwk(r1, "r1", None)],
        "jwks_k1_r1_r2": [jwk1, jwk(r1, "r1", None), jwk(r2, "r2", "RS512")],
    }, tokens)


if __name__ == "__main__":
    main()
