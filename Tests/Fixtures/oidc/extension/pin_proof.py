"""The PIN proof of docs/pin-proof.md, as the server checks it."""
import base64
import hashlib
import hmac

PROOF_LABEL = b"identityflow-pin-proof-v1"


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


def expected_proof(key: bytes, profile_id: str, nonce: bytes) -> bytes:
    message = PROOF_LABEL + b"\x00" + profile_id.encode("utf-8") + b"\x00" + nonce
    return hmac.new(key, message, hashlib.sha256).digest()


def proof_matches(key: bytes, profile_id: str, nonce: bytes, proof: bytes) -> bool:
    return hmac.compare_digest(expected_proof(key, profile_id, nonce), proof)
