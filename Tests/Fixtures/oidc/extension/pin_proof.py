"""PIN proof v2 of docs/pin-proof.md as the server checks it, and v1 for profiles not yet upgraded."""
import base64
import hashlib
import hmac

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, utils

V1_LABEL = b"identityflow-pin-proof-v1"
LOGIN = b"identityflow-pin-proof-v2"
CHANGE = b"identityflow-pin-change-v2"
BIOMETRIC_ENROL = b"identityflow-biometric-enrol-v2"
BIOMETRIC_LOGIN = b"identityflow-biometric-proof-v2"
UPGRADE = b"identityflow-pin-upgrade-v2"
MOBILE_AUTH_LOOKUP = b"identityflow-mobile-auth-lookup-v1"
MOBILE_AUTH_ANSWER = b"identityflow-mobile-auth-answer-v1"
MOBILE_AUTH_PIN = b"identityflow-mobile-auth-pin-v1"
MOBILE_AUTH_BIOMETRIC = b"identityflow-mobile-auth-biometric-v1"
IMPLICIT_TOKEN = b"identityflow-implicit-token-v1"
MOBILE_AUTH_ENROL = b"identityflow-mobile-auth-enrol-v2"
IMPLICIT_ENROL = b"identityflow-implicit-enrol-v2"
BIOMETRIC_REVOKE = b"identityflow-biometric-revoke-v2"
DEREGISTER = b"identityflow-deregister-v2"
ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


def b64url_decode(text: str) -> bytes:
    """Decode unpadded base64url; raises ValueError on anything else."""
    if not isinstance(text, str) or "=" in text:
        raise ValueError("not unpadded base64url")
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (ValueError, TypeError) as error:
        raise ValueError("not base64url") from error


def b64url_encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def message(label: bytes, profile_id: str, nonce: bytes, subject: bytes = b"") -> bytes:
    return label + b"\x00" + profile_id.encode("utf-8") + b"\x00" + nonce + subject


def public_key(raw: bytes):
    """The P-256 key of a SEC1 uncompressed point; ValueError when it is not one on the curve."""
    if len(raw) != 65 or raw[0] != 4:
        raise ValueError("not an uncompressed P-256 point")
    return ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)


def signature_well_formed(signature: bytes) -> bool:
    """64 bytes r || s with r and s in 1..n-1."""
    if len(signature) != 64:
        return False
    r, s = int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    return 0 < r < ORDER and 0 < s < ORDER


def signature_valid(raw_public_key: bytes, signature: bytes, signed: bytes) -> bool:
    """ECDSA-P256-SHA256 over `signed`; call only with a well-formed signature."""
    r, s = int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    try:
        public_key(raw_public_key).verify(utils.encode_dss_signature(r, s), signed, ec.ECDSA(hashes.SHA256()))
        return True
    except (InvalidSignature, ValueError):
        return False


def v1_proof(key: bytes, profile_id: str, nonce: bytes) -> bytes:
    return hmac.new(key, message(V1_LABEL, profile_id, nonce), hashlib.sha256).digest()


def v1_matches(key: bytes, profile_id: str, nonce: bytes, proof: bytes) -> bool:
    return hmac.compare_digest(v1_proof(key, profile_id, nonce), proof)


def upgrade_matches(key: bytes, profile_id: str, nonce: bytes, new_public_key: bytes, proof: bytes) -> bool:
    expected = hmac.new(key, message(UPGRADE, profile_id, nonce, new_public_key), hashlib.sha256).digest()
    return hmac.compare_digest(expected, proof)
