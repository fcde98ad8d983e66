"""A resource server that accepts only DPoP-bound access tokens with a valid proof (RFC 9449
section 7): the API the DPoP interop tests call. Standard library and `cryptography` only; the
proof checks are dpop_proof.py's (shared with ../oidc-dpop's extension API).

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
import json
import os
import signal
import sys
import threading
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dpop_proof import ProofChecker, Refusal, b64url_decode, presented  # noqa: E402  (this folder's)

CLIENT_ID = "identityflow-resource"
CLIENT_SECRET = "identityflow-resource-secret"


class Verifier(ProofChecker):
    """The proof checks of dpop_proof.py, then the token at the provider's introspection endpoint."""

    def __init__(self, issuer: str):
        super().__init__()
        self.issuer = issuer.rstrip("/")
        self.introspection_endpoint = None

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

    def check(self, method: str, url: str, headers) -> dict:
        token, proof_header = presented(headers.get_all("Authorization") or [], headers.get_all("DPoP") or [])
        proof = self.check_proof(proof_header, method, url, token)
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
