#!/usr/bin/env python3
"""Generate RSA PKCS#1 v1.5 / SHA-256 test vectors and RS256 JSON Web Tokens for IdentityFlow.

Usage: make_rsa_vectors.py [OUTPUT.json] [--quick]

Writes JSON (to OUTPUT.json, or stdout) with:
  keys        RSA public keys as JWK-style base64url "n" and "e" (1024-4096 bits, e=65537, one e=3)
  signatures  {key, message (hex), signature (hex), valid, comment}: valid signatures and
              tampered messages, bit-flipped signatures, wrong keys, wrong lengths, s >= n,
              PSS signatures, SHA-1 signatures and non-canonical PKCS#1 encodings (raw RSA
              operations on malformed encoded messages), all of which must be rejected
  rejectedKeys {n, e, comment}: keys a verifier must refuse (too small, even modulus, e < 3, even e)
  tokens      {token, key, valid, comment}: compact JWS, RS256 ones plus alg none / HS256 / tampered

--quick skips the 3072- and 4096-bit keys (faster live runs).
Requires the `cryptography` package.
"""
import base64
import hashlib
import hmac
import json
import sys

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def int_bytes(value: int, length: int = 0) -> bytes:
    length = max(length, (value.bit_length() + 7) // 8, 1)
    return value.to_bytes(length, "big")


SHA256_PREFIX = bytes.fromhex("3031300d060960864801650304020105000420")
SHA256_PREFIX_NO_NULL = bytes.fromhex("302f300b0609608648016503040201" "0420")


def raw_sign(private_key, encoded: bytes) -> bytes:
    """The RSA private operation on an arbitrary encoded message (for malformed encodings)."""
    numbers = private_key.private_numbers()
    n = numbers.public_numbers.n
    k = (n.bit_length() + 7) // 8
    return int_bytes(pow(int.from_bytes(encoded, "big"), numbers.d, n), k)


def emsa(k: int, digest_info: bytes, block_type: int = 1, trailer: bytes = b"", ff_count=None) -> bytes:
    ps_len = k - len(digest_info) - len(trailer) - 3 if ff_count is None else ff_count
    filler = b"\xff" * ps_len
    body = bytes([0, block_type]) + filler + b"\x00" + digest_info + trailer
    return body + b"\x00" * (k - len(body)) if len(body) < k else body


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    quick = "--quick" in sys.argv
    sizes = [1024, 2048] if quick else [1024, 2048, 3072, 4096]
    specs = [(f"rsa{bits}", bits, 65537) for bits in sizes] + [("rsa2048e3", 2048, 3)]

    keys, private = [], {}
    for name, bits, e in specs:
        key = rsa.generate_private_key(public_exponent=e, key_size=bits)
        private[name] = key
        pn = key.public_key().public_numbers()
        keys.append({"name": name, "bits": bits, "n": b64url(int_bytes(pn.n)), "e": b64url(int_bytes(pn.e))})

    signatures = []

    def add(key, message, signature, valid, comment):
        signatures.append({"key": key, "message": message.hex(), "signature": signature.hex(),
                           "valid": valid, "comment": comment})

    names = [name for name, _, _ in specs]
    bits_of = {name: bits for name, bits, _ in specs}
    for index, name in enumerate(names):
        key = private[name]
        n = key.public_key().public_numbers().n
        k = (n.bit_length() + 7) // 8
        # The full negative suite runs on the 1024- and 2048-bit keys; larger keys get the core cases.
        full = bits_of[name] <= 2048
        messages = [b"", b"abc", f"IdentityFlow vector for {name}".encode()]
        if name == "rsa2048":
            messages.append(bytes(range(256)) * 2)
        for message in messages:
            add(name, message, key.sign(message, padding.PKCS1v15(), hashes.SHA256()), True, "valid PKCS1v15 SHA-256")

        message = b"eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9"
        good = key.sign(message, padding.PKCS1v15(), hashes.SHA256())
        add(name, bytes([message[0] ^ 1]) + message[1:], good, False, "tampered message (bit flip)")
        for position in (0, k // 2, k - 1) if full else (k // 2,):
            flipped = bytearray(good)
            flipped[position] ^= 0x01
            add(name, message, bytes(flipped), False, f"signature bit flip at byte {position}")
        other = private[names[(index + 1) % len(names)]]
        wrong = other.sign(message, padding.PKCS1v15(), hashes.SHA256())
        add(name, message, wrong, False, "signature made with another key")
        add(name, message, good[:-1], False, "signature one byte short")
        add(name, message, b"\x00" + good, False, "signature one byte long (leading zero)")
        if not full:
            add(name, message, key.sign(message, padding.PKCS1v15(), hashes.SHA1()), False, "PKCS1v15 with SHA-1")
            continue
        add(name, message + b"x", good, False, "tampered message (byte appended)")
        add(name, message, good + b"\x00", False, "signature one byte long (trailing zero)")
        add(name, message, b"", False, "empty signature")
        s = int.from_bytes(good, "big")
        if s + n < 256 ** k:
            add(name, message, int_bytes(s + n, k), False, "s + n (signature not below the modulus)")
        add(name, message, int_bytes(n, k), False, "s = n")
        pss = key.sign(message, padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=32), hashes.SHA256())
        add(name, message, pss, False, "RSASSA-PSS signature")
        add(name, message, key.sign(message, padding.PKCS1v15(), hashes.SHA1()), False, "PKCS1v15 with SHA-1")

        digest = hashlib.sha256(message).digest()
        add(name, message, raw_sign(key, emsa(k, SHA256_PREFIX + digest)), True, "raw RSA on the canonical encoding")
        malformed = [
            (emsa(k, SHA256_PREFIX_NO_NULL + digest), "DigestInfo without NULL parameters"),
            (emsa(k, SHA256_PREFIX + digest, block_type=2), "block type 2"),
            (emsa(k, SHA256_PREFIX + digest, trailer=b"\x00" * 8), "garbage after the digest"),
            (emsa(k, SHA256_PREFIX + digest, ff_count=8), "short padding, digest not at the end"),
            (emsa(k, SHA256_PREFIX + hashlib.sha256(message + b"!").digest()), "digest of another message"),
            (b"\x00\x01" + b"\xff" * (k - 2), "padding only"),
            (b"\x00" + emsa(k, SHA256_PREFIX + digest)[:-1], "encoding shifted right by one byte"),
        ]
        for encoded, comment in malformed:
            add(name, message, raw_sign(key, encoded[:k]), False, f"non-canonical encoding: {comment}")

    # Keys a verifier must refuse.
    k1024 = private["rsa1024"].public_key().public_numbers()
    rejected = [
        {"n": b64url(int_bytes((k1024.n >> 1) | 1)), "e": "AQAB", "comment": "modulus of 1023 bits"},
        {"n": b64url(int_bytes(k1024.n - 1)), "e": "AQAB", "comment": "even modulus"},
        {"n": b64url(int_bytes(k1024.n)), "e": b64url(int_bytes(1)), "comment": "exponent 1"},
        {"n": b64url(int_bytes(k1024.n)), "e": b64url(int_bytes(65536)), "comment": "even exponent"},
        {"n": b64url(int_bytes(k1024.n)), "e": "", "comment": "empty exponent"},
        {"n": b64url(int_bytes(k1024.n)), "e": b64url(int_bytes(k1024.n)), "comment": "exponent equal to the modulus"},
        {"n": "not base64url!", "e": "AQAB", "comment": "invalid base64url modulus"},
        {"n": b64url(int_bytes(k1024.n)), "e": "AQ+B", "comment": "invalid base64url exponent"},
        {"n": b64url(b"\x01" + b"\x00" * 1024 + b"\x01"), "e": "AQAB", "comment": "modulus above 8192 bits"},
    ]

    # JSON Web Tokens.
    def segment(obj) -> str:
        return b64url(json.dumps(obj, separators=(",", ":")).encode())

    claims = {"iss": "https://idp.example.com", "sub": "alice", "aud": ["identityflow-client", "other"],
              "exp": 1893456000, "iat": 1700000000, "nonce": "n-0S6_WzA2Mj", "email_verified": True,
              "amr": ["pwd", "mfa"], "address": {"country": "NL", "locality": None}, "score": 12.5,
              "name": "Alice \u00e9\u6771\u4eac \U0001F511"}
    jwt_key = "rsa2048"
    header = {"alg": "RS256", "typ": "JWT", "kid": jwt_key}
    signing_input = segment(header) + "." + segment(claims)
    rs256 = b64url(private[jwt_key].sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256()))
    tokens = [{"token": signing_input + "." + rs256, "key": jwt_key, "valid": True, "comment": "RS256 ID token"}]
    tampered_claims = dict(claims, sub="mallory")
    tokens.append({"token": segment(header) + "." + segment(tampered_claims) + "." + rs256, "key": jwt_key,
                   "valid": False, "comment": "claims changed after signing"})
    none_input = segment({"alg": "none", "typ": "JWT"}) + "." + segment(claims)
    tokens.append({"token": none_input + ".", "key": jwt_key, "valid": False, "comment": "alg none, empty signature"})
    lower_none = segment({"alg": "None", "kid": jwt_key}) + "." + segment(claims)
    tokens.append({"token": lower_none + "." + rs256, "key": jwt_key, "valid": False, "comment": "alg None with an RS256 signature"})
    # HS256 keyed with the RSA public key bytes: the classic algorithm-confusion attack.
    hs_input = segment({"alg": "HS256", "kid": jwt_key}) + "." + segment(claims)
    hs_key = private[jwt_key].public_key().public_numbers().n.to_bytes(256, "big")
    hs_sig = b64url(hmac.new(hs_key, hs_input.encode(), hashlib.sha256).digest())
    tokens.append({"token": hs_input + "." + hs_sig, "key": jwt_key, "valid": False, "comment": "alg HS256 keyed with the public modulus"})
    # RS256 signature over the header with alg RS512: right key and bytes, wrong alg.
    rs512_input = segment({"alg": "RS512", "kid": jwt_key}) + "." + segment(claims)
    rs512_sig = b64url(private[jwt_key].sign(rs512_input.encode(), padding.PKCS1v15(), hashes.SHA256()))
    tokens.append({"token": rs512_input + "." + rs512_sig, "key": jwt_key, "valid": False, "comment": "alg RS512 (not RS256)"})
    other_sig = b64url(private["rsa1024"].sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256()))
    tokens.append({"token": signing_input + "." + other_sig, "key": jwt_key, "valid": False, "comment": "signed by another key"})

    document = {
        "generator": "Tests/Fixtures/crypto/make_rsa_vectors.py",
        "keys": keys,
        "signatures": signatures,
        "rejectedKeys": rejected,
        "tokens": tokens,
        "jwtClaims": claims,
    }
    text = json.dumps(document, indent=0, ensure_ascii=True) + "\n"
    if args:
        with open(args[0], "w") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
