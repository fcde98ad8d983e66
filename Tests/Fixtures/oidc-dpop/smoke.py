"""Smoke test of the DPoP and PAR fixtures, as a client would use them: proves the fixtures before any
Swift client does. Standard library and `cryptography` only (both in this fixture's venv).

    .venv/bin/python smoke.py [ISSUER] [RESOURCE_URL]

Defaults: $IDENTITYFLOW_OIDC_ISSUER_5 or http://127.0.0.1:8769, $IDENTITYFLOW_DPOP_RESOURCE_URL or
http://127.0.0.1:8770/api. Exits 0 when every step passed, prints one line a step.
"""

import base64
import hashlib
import html
import json
import os
import re
import secrets
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

CLIENT_ID = "identityflow-tests"
REDIRECT_URI = "identityflow://callback"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_json(value: dict) -> str:
    return b64url(json.dumps(value, separators=(",", ":")).encode())


class Key:
    """A P-256 DPoP key and its proofs (RFC 9449 section 4)."""

    def __init__(self):
        self.private = ec.generate_private_key(ec.SECP256R1())
        numbers = self.private.public_key().public_numbers()
        self.jwk = {
            "crv": "P-256",
            "kty": "EC",
            "x": b64url(numbers.x.to_bytes(32, "big")),
            "y": b64url(numbers.y.to_bytes(32, "big")),
        }
        canonical = json.dumps({k: self.jwk[k] for k in ("crv", "kty", "x", "y")}, separators=(",", ":"))
        self.thumbprint = b64url(hashlib.sha256(canonical.encode()).digest())

    def proof(self, method: str, url: str, access_token: str = None, nonce: str = None) -> str:
        parts = urllib.parse.urlsplit(url)
        claims = {
            "jti": secrets.token_urlsafe(16),
            "htm": method,
            "htu": urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path, "", "")),
            "iat": int(time.time()),
        }
        if access_token is not None:
            claims["ath"] = b64url(hashlib.sha256(access_token.encode()).digest())
        if nonce is not None:
            claims["nonce"] = nonce
        signing_input = b64url_json({"typ": "dpop+jwt", "alg": "ES256", "jwk": self.jwk}) + "." + b64url_json(claims)
        r, s = decode_dss_signature(self.private.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
        return signing_input + "." + b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """HTTP without following redirects, with one cookie jar (like Tests/InteropTests/HeadlessBrowser)."""

    def __init__(self):
        self.cookies = {}
        self.opener = urllib.request.build_opener(NoRedirect())

    def send(self, method, url, form=None, headers=None):
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        request = urllib.request.Request(url, data=data, method=method, headers=dict(headers or {}))
        if form is not None:
            request.add_header("Content-Type", "application/x-www-form-urlencoded")
        if self.cookies:
            request.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        try:
            response = self.opener.open(request, timeout=10)
        except urllib.error.HTTPError as error:
            response = error
        body = response.read().decode()
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            self.cookies[name.strip()] = rest.split(";")[0]
        return response.status, response.headers, body


passed = 0


def check(condition, what, detail=""):
    global passed
    if not condition:
        print(f"FAIL {what}" + (f": {detail}" if detail else ""))
        sys.exit(1)
    passed += 1
    print(f"ok   {what}")


def main():
    issuer = (sys.argv[1] if len(sys.argv) > 1 else os.environ.get("IDENTITYFLOW_OIDC_ISSUER_5", "http://127.0.0.1:8769")).rstrip("/")
    resource = sys.argv[2] if len(sys.argv) > 2 else os.environ.get("IDENTITYFLOW_DPOP_RESOURCE_URL", "http://127.0.0.1:8770/api")
    http = Browser()

    status, _, body = http.send("GET", issuer + "/.well-known/openid-configuration")
    meta = json.loads(body)
    check(status == 200 and meta["issuer"] == issuer, "discovery answers with the issuer")
    check("pushed_authorization_request_endpoint" in meta and meta.get("require_pushed_authorization_requests") is True, "discovery: PAR endpoint, PAR required")
    check("ES256" in meta.get("dpop_signing_alg_values_supported", []), "discovery: DPoP with ES256")
    check(meta.get("code_challenge_methods_supported") == ["S256"], "discovery: PKCE S256 only")
    check(meta.get("authorization_response_iss_parameter_supported") is True, "discovery: iss in the authorization response (RFC 9207)")

    key, other = Key(), Key()
    verifier = secrets.token_urlsafe(48)
    challenge = b64url(hashlib.sha256(verifier.encode()).digest())
    state = secrets.token_urlsafe(12)
    params = {
        "client_id": CLIENT_ID,
        "response_type": "code",
        "redirect_uri": REDIRECT_URI,
        "scope": "openid profile email",
        "state": state,
        "nonce": secrets.token_urlsafe(12),
        "code_challenge": challenge,
        "code_challenge_method": "S256",
        "dpop_jkt": key.thumbprint,
    }

    status, _, body = http.send("GET", meta["authorization_endpoint"] + "?" + urllib.parse.urlencode(params))
    check(status == 400 and "PAR" in body, "an authorization request not pushed is refused", f"{status} {body[:200]}")

    status, _, body = http.send("POST", meta["pushed_authorization_request_endpoint"], form=params)
    pushed = json.loads(body)
    check(status == 201 and pushed["request_uri"].startswith("urn:") and pushed["expires_in"] > 0, "PAR answers 201 with request_uri and expires_in", body)

    query = urllib.parse.urlencode({"client_id": CLIENT_ID, "request_uri": pushed["request_uri"]})
    status, _, page = http.send("GET", meta["authorization_endpoint"] + "?" + query)
    form = re.search(r'(?is)<form[^>]*action="([^"]*)"[^>]*method="post"[^>]*>(.*?)</form>', page)
    check(status == 200 and form and 'name="username"' in form.group(2), "the authorization URL with request_uri shows the login form", f"{status} {page[:300]}")
    fields = {m.group(1): html.unescape(m.group(2)) for m in re.finditer(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group(2))}
    fields.update({"username": "alice", "password": "alice-password-1"})
    status, headers, body = http.send("POST", urllib.parse.urljoin(meta["authorization_endpoint"], html.unescape(form.group(1))), form=fields)
    location = headers.get("Location", "")
    check(status in (302, 303) and location.startswith(REDIRECT_URI), "login redirects to the app", f"{status} {body[:300]}")
    answer = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))
    check(answer.get("state") == state and answer.get("iss") == issuer and "code" in answer, "the redirect carries code, state and iss", location)

    token_endpoint = meta["token_endpoint"]
    exchange = {"grant_type": "authorization_code", "code": answer["code"], "redirect_uri": REDIRECT_URI, "client_id": CLIENT_ID, "code_verifier": verifier}

    status, _, body = http.send("POST", token_endpoint, form=exchange)
    check(status == 400, "the code exchange without a proof is refused", f"{status} {body}")
    status, _, body = http.send("POST", token_endpoint, form=exchange, headers={"DPoP": other.proof("POST", token_endpoint)})
    check(status == 400 and "dpop" in body.lower(), "the code exchange with a proof of a key other than dpop_jkt is refused", f"{status} {body}")

    def token_request(form, proof_key):
        nonce = None
        for _ in range(2):
            status, headers, body = http.send("POST", token_endpoint, form=form, headers={"DPoP": proof_key.proof("POST", token_endpoint, nonce=nonce)})
            if status == 400 and json.loads(body).get("error") == "use_dpop_nonce" and nonce is None:
                nonce = headers.get("DPoP-Nonce")
                continue
            return status, body
        return status, body

    status, body = token_request(exchange, key)
    tokens = json.loads(body)
    check(status == 200 and tokens.get("token_type") == "DPoP", "the code exchange with the key's proof answers token_type DPoP", body)
    check("refresh_token" in tokens and "id_token" in tokens, "the exchange issues a refresh token and an ID token")
    id_header = json.loads(base64.urlsafe_b64decode(tokens["id_token"].split(".")[0] + "=="))
    id_claims = json.loads(base64.urlsafe_b64decode(tokens["id_token"].split(".")[1] + "=="))
    check(id_claims.get("iss") == issuer and CLIENT_ID in ([id_claims.get("aud")] if isinstance(id_claims.get("aud"), str) else id_claims.get("aud", [])) and id_claims.get("nonce") == params["nonce"], "the ID token names the issuer, the client and the request's nonce", f"{id_header} {id_claims}")
    check(id_header.get("alg") == "ES256", "the ID token is signed ES256 (as the FAPI 2.0 profile asks)", str(id_header))
    claims = json.loads(base64.urlsafe_b64decode(tokens["access_token"].split(".")[1] + "=="))
    check(claims.get("cnf", {}).get("jkt") == key.thumbprint, "the access token is bound to the key (cnf.jkt)", str(claims.get("cnf")))

    status, _, body = http.send("GET", meta["userinfo_endpoint"], headers={"Authorization": "DPoP " + tokens["access_token"], "DPoP": key.proof("GET", meta["userinfo_endpoint"], tokens["access_token"])})
    userinfo = json.loads(body) if status == 200 else {}
    check(userinfo.get("preferred_username") == "alice", "userinfo answers the DPoP-bound token", f"{status} {body}")

    refresh = {"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"], "client_id": CLIENT_ID}
    status, body = token_request(refresh, other)
    check(status == 400 and "another DPoP key" in body, "a refresh with another key (a copied refresh token) is refused", f"{status} {body}")
    status, _, body = http.send("POST", token_endpoint, form=refresh)
    check(status == 400, "a refresh without a proof is refused", f"{status} {body}")
    status, body = token_request(refresh, key)
    refreshed = json.loads(body)
    check(status == 200 and refreshed.get("token_type") == "DPoP" and "refresh_token" in refreshed, "a refresh with the same key answers new DPoP tokens", body)
    check(json.loads(base64.urlsafe_b64decode(refreshed["access_token"].split(".")[1] + "=="))["cnf"]["jkt"] == key.thumbprint, "the refreshed access token is bound to the same key")
    status, body = token_request(refresh, key)
    check(status == 400, "the spent refresh token is refused (rotation)", f"{status} {body}")

    access = refreshed["access_token"]
    status, headers, body = http.send("GET", resource, headers={"Authorization": "DPoP " + access, "DPoP": key.proof("GET", resource, access)})
    nonce = headers.get("DPoP-Nonce")
    check(status == 401 and 'error="use_dpop_nonce"' in headers.get("WWW-Authenticate", "") and nonce, "the resource server asks for a nonce first", f"{status} {headers}")
    proof = key.proof("GET", resource + "?page=1", access, nonce=nonce)
    status, headers, body = http.send("GET", resource + "?page=1", headers={"Authorization": "DPoP " + access, "DPoP": proof})
    check(status == 200 and json.loads(body).get("sub") == userinfo["sub"], "the resource server accepts the token with a proof and the nonce", f"{status} {body}")
    nonce = headers.get("DPoP-Nonce", nonce)
    status, headers, body = http.send("GET", resource + "?page=1", headers={"Authorization": "DPoP " + access, "DPoP": proof})
    check(status == 401 and "invalid_dpop_proof" in headers.get("WWW-Authenticate", ""), "a replayed proof is refused", f"{status} {headers}")
    status, headers, _ = http.send("GET", resource, headers={"Authorization": "Bearer " + access})
    check(status == 401, "the token as a bearer token (copied, no key) is refused", f"{status}")
    status, headers, _ = http.send("GET", resource, headers={"Authorization": "DPoP " + access})
    check(status == 401, "the token without a proof is refused", f"{status}")
    status, headers, _ = http.send("GET", resource, headers={"Authorization": "DPoP " + access, "DPoP": other.proof("GET", resource, access, nonce=nonce)})
    check(status == 401, "the token with a proof by another key is refused", f"{status}")
    status, headers, _ = http.send("POST", resource, headers={"Authorization": "DPoP " + access, "DPoP": key.proof("GET", resource, access, nonce=nonce)})
    check(status == 401, "a proof for another method (htm) is refused", f"{status}")
    status, headers, _ = http.send("GET", resource, headers={"Authorization": "DPoP " + access, "DPoP": key.proof("GET", resource, tokens["access_token"], nonce=nonce)})
    check(status == 401, "a proof for another token (ath) is refused", f"{status}")
    status, headers, _ = http.send("GET", resource, headers={"Authorization": "DPoP " + access, "DPoP": key.proof("GET", resource, access, nonce=nonce)})
    check(status == 200, "a fresh proof with the nonce is accepted again", f"{status}")

    revocation = meta["revocation_endpoint"]
    status, _, body = http.send("POST", revocation, form={"token": refreshed["refresh_token"], "token_type_hint": "refresh_token", "client_id": CLIENT_ID})
    check(status == 200, "revocation of the refresh token answers 200", f"{status} {body}")
    status, body = token_request({**refresh, "refresh_token": refreshed["refresh_token"]}, key)
    check(status == 400, "the revoked refresh token is refused", f"{status} {body}")
    status, _, body = http.send("POST", revocation, form={"token": access, "token_type_hint": "access_token", "client_id": CLIENT_ID})
    check(status == 200, "revocation of the access token answers 200", f"{status} {body}")
    status, headers, _ = http.send("GET", resource, headers={"Authorization": "DPoP " + access, "DPoP": key.proof("GET", resource, access, nonce=nonce)})
    check(status == 401, "the resource server refuses the revoked access token", f"{status}")

    print(f"{passed} passed, 0 failed")


if __name__ == "__main__":
    main()
