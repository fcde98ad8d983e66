"""A resource server that accepts only DPoP-bound access tokens with a valid proof (RFC 9449
section 7): the API the DPoP interop tests call. Standard library and `cryptography` only.

    python server.py PORT PROVIDER_ISSUER

Serves GET and POST on /api (and anything under it) on 127.0.0.1, one request at a time. A request
is answered 200 with the token's subject only when:

- `Authorization: DPoP <token>` (a bearer token is refused);
- one `DPoP` header: a compact JWS, header `typ` `dpop+jwt`, `alg` `ES256`, `jwk` a public P-256
  key (no private part), signature valid for that key;
- claims `htm` the request's method, `htu` the request's URL without query and fragment, `iat`
  within the last 120 s (10 s ahead allowed), `ath` base64url SHA-256 of the token, `nonce` one this
  server handed out (first request: 401 `WWW-Authenticate: DPoP error="use_dpop_nonce"` with
  `DPoP-Nonce`), a `jti` never seen before (replays refused);
- the token active at the provider (its introspection endpoint, with the confidential client
  `identityflow-resource`), with token_type DPoP and bound to the proof's key: `cnf.jkt` (from
  the introspection answer, or from the JWT access token's claims the introspection vouched for)
  equal to the RFC 7638 thumbprint of the proof's `jwk`.

Every answer carries the current `DPoP-Nonce`. Refusals are 401 with `WWW-Authenticate: DPoP
error="invalid_token"` / `"invalid_dpop_proof"` / `"use_dpop_nonce"` and `algs="ES256"`.
"""

import base64
import hashlib
import json
import secrets
import signal
import sys
import threading
import time
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

CLIENT_ID = "identityflow-resource"
CLIENT_SECRET = "identityflow-resource-secret"
IAT_PAST = 120
IAT_FUTURE = 10
NONCE_LIFETIME = 300
MAX_JTIS = 10000


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Refusal(Exception):
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


class Verifier:
    def __init__(self, issuer: str):
        self.issuer = issuer.rstrip("/")
        self.introspection_endpoint = None
        self.nonces = Nonces()
        self.seen_jtis = {}  # jti -> iat, kept for the iat window

    def introspect(self, token: str) -> dict:
        if self.introspection_endpoint is None:
            with urllib.request.urlopen(self.issuer + "/.well-known/openid-configuration", timeout=10) as response:
                self.introspection_endpoint = json.load(response)["introspection_endpoint"]
        credentials = base64.b64encode(f"{CLIENT_ID}:{CLIENT_SECRET}".encode()).decode()
        request = urllib.request.Request(
            self.introspection_endpoint,
            data=urllib.parse.urlencode({"token": token}).encode(),
            headers={"Authorization": "Basic " + credentials, "Content-Type": "application/x-www-form-urlencoded"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)

    @staticmethod
    def thumbprint(jwk: dict) -> str:
        canonical = json.dumps({k: jwk[k] for k in ("crv", "kty", "x", "y")}, separators=(",", ":"), sort_keys=True)
        return b64url(hashlib.sha256(canonical.encode()).digest())

    def check_proof(self, proof: str, method: str, url: str, token: str) -> dict:
        """The proof's claims and its key's thumbprint, or Refusal."""
        try:
            header_part, claims_part, signature_part = proof.split(".")
            header = json.loads(b64url_decode(header_part))
            claims = json.loads(b64url_decode(claims_part))
            signature = b64url_decode(signature_part)
        except Exception:
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
        except (InvalidSignature, ValueError, KeyError):
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
        if claims.get("ath") != b64url(hashlib.sha256(token.encode()).digest()):
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
        return {"claims": claims, "jkt": self.thumbprint(jwk)}

    def check(self, method: str, url: str, headers) -> dict:
        authorization = headers.get_all("Authorization") or []
        if len(authorization) != 1:
            raise Refusal("invalid_token", "one Authorization header is required")
        scheme, _, token = authorization[0].partition(" ")
        if scheme.lower() != "dpop" or not token.strip():
            raise Refusal("invalid_token", "the access token must be sent with the DPoP scheme")
        token = token.strip()
        proofs = headers.get_all("DPoP") or []
        if len(proofs) != 1:
            raise Refusal("invalid_dpop_proof", "one DPoP proof header is required")
        proof = self.check_proof(proofs[0], method, url, token)
        try:
            info = self.introspect(token)
        except Exception as error:
            raise Refusal("invalid_token", f"introspection failed: {error}")
        if not info.get("active"):
            raise Refusal("invalid_token", "the access token is not active")
        if str(info.get("token_type", "")).lower() != "dpop":
            raise Refusal("invalid_token", "the access token is not DPoP-bound")
        jkt = (info.get("cnf") or {}).get("jkt")
        if jkt is None and token.count(".") == 2:
            try:  # the provider vouched for this exact token: its claims are its own
                jkt = (json.loads(b64url_decode(token.split(".")[1])).get("cnf") or {}).get("jkt")
            except Exception:
                jkt = None
        if jkt != proof["jkt"]:
            raise Refusal("invalid_token", "the access token is bound to another key")
        return {"sub": info.get("sub"), "scope": info.get("scope"), "client_id": info.get("client_id")}


class Handler(BaseHTTPRequestHandler):
    server_version = "IdentityFlowDPoPResource/1"
    timeout = 10

    def handle_api(self):
        verifier: Verifier = self.server.verifier
        path = urllib.parse.urlsplit(self.path).path
        if path != "/api" and not path.startswith("/api/"):
            return self.answer(404, {"error": "not_found"})
        url = f"http://{self.headers.get('Host', '')}{path}"
        try:
            if self.command == "POST":
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
            result = verifier.check(self.command, url, self.headers)
        except Refusal as refusal:
            self.log_message("refused: %s (%s)", refusal.error, refusal.description)
            challenge = f'DPoP error="{refusal.error}", error_description="{refusal.description}", algs="ES256"'
            return self.answer(401, {"error": refusal.error, "error_description": refusal.description}, challenge)
        self.answer(200, {**result, "method": self.command, "path": path})

    def answer(self, status: int, body: dict, challenge: str = None):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("DPoP-Nonce", self.server.verifier.nonces.now())
        if challenge:
            self.send_header("WWW-Authenticate", challenge)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/health":
            return self.answer(200, {"status": "ok"})
        self.handle_api()

    def do_POST(self):
        self.handle_api()


def main():
    port = int(sys.argv[1])
    issuer = sys.argv[2]
    server = HTTPServer(("127.0.0.1", port), Handler)
    server.verifier = Verifier(issuer)
    server.timeout = 1
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    signal.signal(signal.SIGINT, lambda *_: stopping.set())
    print(f"DPoP resource server on http://127.0.0.1:{port}/api (provider {issuer})", flush=True)
    # One request at a time, each bounded by the handler's timeout; the loop ends on TERM.
    while not stopping.is_set():
        server.handle_request()
    server.server_close()


if __name__ == "__main__":
    main()
