#!/usr/bin/env python3
"""The PIN proof of docs/pin-proof.md, written out with hashlib/hmac only, and its worked example.

Run it to print the example values (hex and base64url) that docs/pin-proof.md and the Swift tests
use. smoke.py imports derive_key/pin_proof from here, so the smoke test checks the server against
this independent implementation rather than against the server's own code.
"""
import base64
import hashlib
import hmac

PROOF_LABEL = b"identityflow-pin-proof-v1"

EXAMPLE_PIN = "24680"
EXAMPLE_SALT = bytes(range(0x00, 0x10))
EXAMPLE_ITERATIONS = 1000
EXAMPLE_PROFILE_ID = "P1"
EXAMPLE_NONCE = bytes(range(0x20, 0x40))


def b64url(data: bytes) -> str:
    """Unpadded base64url (RFC 4648 section 5)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def derive_key(pin: str, salt: bytes, iterations: int) -> bytes:
    """key = PBKDF2-HMAC-SHA256(UTF-8(PIN), salt, iterations, dkLen 32). verifier = b64url(key)."""
    return hashlib.pbkdf2_hmac("sha256", pin.encode("utf-8"), salt, iterations, dklen=32)


def proof_message(profile_id: str, nonce: bytes) -> bytes:
    return PROOF_LABEL + b"\x00" + profile_id.encode("utf-8") + b"\x00" + nonce


def pin_proof(key: bytes, profile_id: str, nonce: bytes) -> bytes:
    """proof = HMAC-SHA256(key, "identityflow-pin-proof-v1" || 0x00 || profile_id || 0x00 || nonce)."""
    return hmac.new(key, proof_message(profile_id, nonce), hashlib.sha256).digest()


def main() -> None:
    key = derive_key(EXAMPLE_PIN, EXAMPLE_SALT, EXAMPLE_ITERATIONS)
    proof = pin_proof(key, EXAMPLE_PROFILE_ID, EXAMPLE_NONCE)
    rows = [
        ("pin", EXAMPLE_PIN),
        ("salt (hex)", EXAMPLE_SALT.hex()),
        ("salt (base64url)", b64url(EXAMPLE_SALT)),
        ("iterations", str(EXAMPLE_ITERATIONS)),
        ("profile_id", EXAMPLE_PROFILE_ID),
        ("nonce (hex)", EXAMPLE_NONCE.hex()),
        ("nonce (base64url)", b64url(EXAMPLE_NONCE)),
        ("key (hex)", key.hex()),
        ("verifier (base64url)", b64url(key)),
        ("proof message (hex)", proof_message(EXAMPLE_PROFILE_ID, EXAMPLE_NONCE).hex()),
        ("proof (hex)", proof.hex()),
        ("proof (base64url)", b64url(proof)),
    ]
    for name, value in rows:
        print(f"{name:22} {value}")


if __name__ == "__main__":
    main()
