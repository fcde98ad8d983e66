#!/usr/bin/env python3
"""PIN proof v2 of docs/pin-proof.md written out with hashlib, hmac and `cryptography`, and its
worked example.

Run it to print the example values of docs/pin-proof.md. smoke.py imports the device side from
here, so the smoke test checks the server against this implementation rather than against the
server's own code. The v1 functions remain for profiles enrolled before v2.
"""
import base64
import hashlib
import hmac

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, utils
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
LOGIN = b"identityflow-pin-proof-v2"
CHANGE = b"identityflow-pin-change-v2"

EXAMPLE_PIN = "24680"
EXAMPLE_SALT = bytes(range(0x00, 0x10))
EXAMPLE_ITERATIONS = 100_000
EXAMPLE_PROFILE_ID = "P1"
EXAMPLE_DEVICE_SECRET = bytes(range(0x40, 0x60))
EXAMPLE_NONCE = bytes(range(0x20, 0x40))


def b64url(data: bytes) -> str:
    """Unpadded base64url (RFC 4648 section 5)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def message(label: bytes, profile_id: str, nonce: bytes, subject: bytes = b"") -> bytes:
    return label + b"\x00" + profile_id.encode("utf-8") + b"\x00" + nonce + subject


def pin_scalar(pin: str, salt: bytes, iterations: int, device_secret: bytes, profile_id: str) -> int:
    """d = (HKDF-SHA256(PBKDF2(PIN, salt, iterations), salt=D, info=label||0||profile, 48) mod (n-1)) + 1."""
    stretched = hashlib.pbkdf2_hmac("sha256", pin.encode("utf-8"), salt, iterations, dklen=32)
    material = HKDF(algorithm=hashes.SHA256(), length=48, salt=device_secret,
                    info=b"identityflow-pin-key-v2\x00" + profile_id.encode("utf-8")).derive(stretched)
    return int.from_bytes(material, "big") % (ORDER - 1) + 1


def public_key(scalar: int) -> bytes:
    """Q = d*G as a SEC1 uncompressed point."""
    from cryptography.hazmat.primitives import serialization
    key = ec.derive_private_key(scalar, ec.SECP256R1())
    return key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def sign(scalar: int, signed: bytes) -> bytes:
    """ECDSA-P256-SHA256 as raw r || s (random nonce here; the Swift client uses RFC 6979)."""
    der = ec.derive_private_key(scalar, ec.SECP256R1()).sign(signed, ec.ECDSA(hashes.SHA256()))
    r, s = utils.decode_dss_signature(der)
    return r.to_bytes(32, "big") + s.to_bytes(32, "big")


def main() -> None:
    d = pin_scalar(EXAMPLE_PIN, EXAMPLE_SALT, EXAMPLE_ITERATIONS, EXAMPLE_DEVICE_SECRET, EXAMPLE_PROFILE_ID)
    rows = [
        ("pin", EXAMPLE_PIN),
        ("salt (hex)", EXAMPLE_SALT.hex()),
        ("iterations", str(EXAMPLE_ITERATIONS)),
        ("profile_id", EXAMPLE_PROFILE_ID),
        ("device secret (hex)", EXAMPLE_DEVICE_SECRET.hex()),
        ("private scalar d (hex)", d.to_bytes(32, "big").hex()),
        ("public key Q (hex)", public_key(d).hex()),
        ("nonce (hex)", EXAMPLE_NONCE.hex()),
        ("login message (hex)", message(LOGIN, EXAMPLE_PROFILE_ID, EXAMPLE_NONCE).hex()),
    ]
    for name, value in rows:
        print(f"{name:24} {value}")


if __name__ == "__main__":
    main()
