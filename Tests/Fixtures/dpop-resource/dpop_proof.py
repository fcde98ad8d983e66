"""DPoP proof checks (RFC 9449 section 4.3), shared by the resource server (server.py here) and the
IdentityFlow extension API of the idpyoidc fixture (../oidc-dpop/extension_api.py, which imports
this file from here). Standard library and `cryptography` only.

A proof is accepted only when it is a compact JWS with `typ` `dpop+jwt`, `alg` `ES256` and `jwk` a
public P-256 key whose signature verifies; `htm` is the request's method and `htu` its URL (scheme,
host, port, path; no query, no fragment); `iat` lies within the last IAT_PAST seconds (IAT_FUTURE
ahead allowed); `ath` is the base64url SHA-256 of the access token when one is presented; `jti` was
never seen in the `iat` window; `nonce` is one the checker handed out (else `use_dpop_nonce`).
"""

import base64
import hashlib
import json
import secrets
import time
import urllib.parse

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

IAT_PAST = 120
IAT_FUTURE = 10
NONCE_LIFETIME = 300
MAX_JTIS = 10000


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def thumbprint(jwk: dict) -> str:
    """The RFC 7638 SHA-256 thumbprint of a public EC key."""
    canonical = json.dumps({k: jwk[k] for k in ("crv", "kty", "x", "y")}, separators=(",", ":"), sort_keys=True)
    return b64url(hashlib.sha256(canonical.encode()).digest())


class Refusal(Exception):
    """A refused request: its OAuth error (`invalid_token`, `invalid_dpop_proof`, `use_dpop_nonce`)."""

    def __init__(self, error: str, description: str):
        super().__init__(description)
        self.error = error
        self.description = description


class Nonces:
    """Nonces handed out, each valid for NONCE_LIFETIME seconds; a new one every half lifetime."""

    def __init__(self):
        self.issued = {}  # nonce -> time issued
        self.current = self._new()

    def _new(self) -> str:
        nonce = secrets.token_urlsafe(24)
        self.issued[nonce] = time.time()
        return nonce

    def now(self) -> str:
        current_time = time.time()
        self.issued = {n: t for n, t in self.issued.items() if current_time - t < NONCE_LIFETIME}
        if current_time - self.issued.get(self.current, 0) > NONCE_LIFETIME / 2:
            self.current = self._new()
        return self.current

    def valid(self, nonce) -> bool:
        return isinstance(nonce, str) and time.time() - self.issued.get(nonce, -NONCE_LIFETIME) < NONCE_LIFETIME


def presented(authorization: list, proofs: list) -> tuple:
    """The access token of `Authorization: DPoP <token>` and the one `DPoP` proof of a request that
    presents a DPoP-bound token (RFC 9449 section 7.1), from the values of those two headers;
    Refusal otherwise (a `Bearer` token included)."""
    if len(authorization) != 1:
        raise Refusal("invalid_token", "one Authorization header is required")
    scheme, _, token = authorization[0].partition(" ")
    if scheme.lower() != "dpop" or not token.strip():
        raise Refusal("invalid_token", "the access token must be sent with the DPoP scheme")
    if len(proofs) != 1:
        raise Refusal("invalid_dpop_proof", "one DPoP proof header is required")
    return token.strip(), proofs[0]


class ProofChecker:
    """Checks proofs against its own nonces and the `jti`s it has seen."""

    def __init__(self):
        self.nonces = Nonces()
        self.seen_jtis = {}  # jti -> iat, kept for the iat window

    def check_proof(self, proof: str, method: str, url: str, token) -> dict:
        """The proof's claims and its key's thumbprint (`{"claims", "jkt"}`), or Refusal. With
        `token` (an access token presented with the proof) `ath` must be its hash; with None (a
        request for tokens) `ath` is not looked at."""
        try:
            header_part, claims_part, signature_part = proof.split(".")
            header = json.loads(b64url_decode(header_part))
            claims = json.loads(b64url_decode(claims_part))
            signature = b64url_decode(signature_part)
        except Exception:
            raise Refusal("invalid_dpop_proof", "the DPoP proof is not a compact JWS")
        if not isinstance(header, dict) or not isinstance(claims, dict):
            raise Refusal("invalid_dpop_proof", "the DPoP proof is not a compact JWS")
        if header.get("typ") != "dpop+jwt":
            raise Refusal("invalid_dpop_proof", "typ is not dpop+jwt")
        if header.get("alg") != "ES256":
            raise Refusal("invalid_dpop_proof", "alg is not ES256")
        jwk = header.get("jwk")
        if not isinstance(jwk, dict) or jwk.get("kty") != "EC" or jwk.get("crv") != "P-256" or "d" in jwk:
            raise Refusal("invalid_dpop_proof", "jwk is not a public P-256 key")
        try:
            x = int.from_bytes(b64url_decode(jwk["x"]), "big")
            y = int.from_bytes(b64url_decode(jwk["y"]), "big")
            key = ec.EllipticCurvePublicNumbers(x, y, ec.SECP256R1()).public_key()
            if len(signature) != 64:
                raise InvalidSignature()
            der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
            key.verify(der, f"{header_part}.{claims_part}".encode(), ec.ECDSA(hashes.SHA256()))
        except (InvalidSignature, ValueError, KeyError, TypeError):
            raise Refusal("invalid_dpop_proof", "the DPoP proof's signature does not verify with its jwk")
        if claims.get("htm") != method:
            raise Refusal("invalid_dpop_proof", "htm is not the request's method")
        htu = urllib.parse.urlsplit(str(claims.get("htu", "")))
        wanted = urllib.parse.urlsplit(url)
        if (htu.scheme.lower(), htu.netloc.lower(), htu.path or "/") != (wanted.scheme, wanted.netloc.lower(), wanted.path or "/") or htu.query or htu.fragment:
            raise Refusal("invalid_dpop_proof", "htu is not the request's URL")
        iat = claims.get("iat")
        now = time.time()
        if not isinstance(iat, (int, float)) or iat < now - IAT_PAST or iat > now + IAT_FUTURE:
            raise Refusal("invalid_dpop_proof", "iat is outside the accepted window")
        if token is not None and claims.get("ath") != b64url(hashlib.sha256(token.encode()).digest()):
            raise Refusal("invalid_dpop_proof", "ath is not the hash of the access token")
        jti = claims.get("jti")
        if not isinstance(jti, str) or not jti:
            raise Refusal("invalid_dpop_proof", "jti is missing")
        if not self.nonces.valid(claims.get("nonce")):
            raise Refusal("use_dpop_nonce", "the proof must carry the server's nonce")
        self.seen_jtis = {j: t for j, t in self.seen_jtis.items() if t > now - IAT_PAST - IAT_FUTURE}
        if jti in self.seen_jtis:
            raise Refusal("invalid_dpop_proof", "the proof was used before (jti replayed)")
        if len(self.seen_jtis) >= MAX_JTIS:
            raise Refusal("invalid_dpop_proof", "too many proofs in the window")
        self.seen_jtis[jti] = iat
        return {"claims": claims, "jkt": thumbprint(jwk)}
