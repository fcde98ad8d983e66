"""Secrets generated on first use and kept in the state directory (never committed).

The state directory holds the SQLite database, the Django secret key and the RS256 signing key
of the OpenID provider. Delete it to start from nothing.
"""
import os
import secrets
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

FIXTURE_DIR = Path(__file__).resolve().parent.parent
STATE_DIR = Path(os.environ.get("IDENTITYFLOW_FIXTURE_STATE", FIXTURE_DIR / ".state"))


def _write_private(path: Path, data: bytes) -> None:
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def secret_key() -> str:
    """The Django SECRET_KEY, created at the first set-up."""
    path = STATE_DIR / "django_secret_key"
    if not path.exists():
        _write_private(path, secrets.token_urlsafe(50).encode())
    return path.read_text().strip()


def rsa_private_key_pem() -> str:
    """The 2048-bit RSA key that signs ID tokens (RS256), created at the first set-up."""
    path = STATE_DIR / "oidc_rs256_key.pem"
    if not path.exists():
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        pem = key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        _write_private(path, pem)
    return path.read_text()


STATE_DIR.mkdir(parents=True, exist_ok=True)
