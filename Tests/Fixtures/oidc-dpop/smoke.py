"""Smoke test of the DPoP and PAR fixtures, as a client would use them: proves the fixtures before any
Swift client does. Standard library and `cryptography` only (both in this fixture's venv), and
../oidc/pin_proof_example.py for the device side of the PIN proof.

The device placement (the browser sign-in, the tokens at idpyoidc's endpoints and the resource
server) runs first, then the server placement (server_placement: the IdentityFlow extension API
under /identityflow/, its DPoP checks and the idpyoidc tokens it mints).

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

# The device side of PIN proof v2, from the django-oauth-toolkit fixture (an implementation apart
# from the server's checks).
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "oidc"))
from pin_proof_example import LOGIN, message, pin_scalar, public_key, sign  # noqa: E402

CLIENT_ID = "identityflow-tests"
REDIRECT_URI = "identityflow://callback"
RESOURCE_CREDENTIALS = base64.b64encode(b"identityflow-resource:identityflow-resource-secret").decode()
BIOMETRIC_ENROL = b"identityflow-biometric-enrol-v2"
BIOMETRIC_LOGIN = b"identityflow-biometric-proof-v2"
DEREGISTER = b"identityflow-deregister-v2"


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

    def send(self, method, url, form=None, headers=None, json_body=None):
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        if json_body is not None:
            data = json.dumps(json_body).encode()
        request = urllib.request.Request(url, data=data, method=method, headers=dict(headers or {}))
        if form is not None:
            request.add_header("Content-Type", "application/x-www-form-urlencoded")
        if json_body is not None:
            request.add_header("Content-Type", "application/json")
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


def require(condition, what, detail=""):
    """check() for a step already counted elsewhere: fails the run, prints and counts nothing."""
    if not condition:
        print(f"FAIL {what}" + (f": {detail}" if detail else ""))
        sys.exit(1)


def authorize(http, meta, key, issuer, expect):
    """A PAR sign-in of alice bound to `key` (dpop_jkt) up to the redirect, each step checked by
    `expect` (check, or require when another run counted it). Returns the redirect's parameters,
    the code exchange's form and the authorization request's parameters."""
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
    expect(status == 400 and "PAR" in body, "an authorization request not pushed is refused", f"{status} {body[:200]}")

    status, _, body = http.send("POST", meta["pushed_authorization_request_endpoint"], form=params)
    pushed = json.loads(body)
    expect(status == 201 and pushed["request_uri"].startswith("urn:") and pushed["expires_in"] > 0, "PAR answers 201 with request_uri and expires_in", body)

    query = urllib.parse.urlencode({"client_id": CLIENT_ID, "request_uri": pushed["request_uri"]})
    status, _, page = http.send("GET", meta["authorization_endpoint"] + "?" + query)
    form = re.search(r'(?is)<form[^>]*action="([^"]*)"[^>]*method="post"[^>]*>(.*?)</form>', page)
    expect(status == 200 and form and 'name="username"' in form.group(2), "the authorization URL with request_uri shows the login form", f"{status} {page[:300]}")
    fields = {m.group(1): html.unescape(m.group(2)) for m in re.finditer(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group(2))}
    fields.update({"username": "alice", "password": "alice-password-1"})
    status, headers, body = http.send("POST", urllib.parse.urljoin(meta["authorization_endpoint"], html.unescape(form.group(1))), form=fields)
    location = headers.get("Location", "")
    expect(status in (302, 303) and location.startswith(REDIRECT_URI), "login redirects to the app", f"{status} {body[:300]}")
    answer = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))
    expect(answer.get("state") == state and answer.get("iss") == issuer and "code" in answer, "the redirect carries code, state and iss", location)
    exchange = {"grant_type": "authorization_code", "code": answer["code"], "redirect_uri": REDIRECT_URI, "client_id": CLIENT_ID, "code_verifier": verifier}
    return answer, exchange, params


def token_call(http, token_endpoint, form, proof_key, nonce=None):
    """A token request with a proof by `proof_key`, retried once with the nonce a
    `use_dpop_nonce` answer names. Returns the status and the body."""
    for _ in range(2):
        status, headers, body = http.send("POST", token_endpoint, form=form, headers={"DPoP": proof_key.proof("POST", token_endpoint, nonce=nonce)})
        if status == 400 and json.loads(body).get("error") == "use_dpop_nonce" and nonce is None:
            nonce = headers.get("DPoP-Nonce")
            continue
        return status, body
    return status, body


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
    answer, exchange, params = authorize(http, meta, key, issuer, check)
    token_endpoint = meta["token_endpoint"]

    status, _, body = http.send("POST", token_endpoint, form=exchange)
    check(status == 400, "the code exchange without a proof is refused", f"{status} {body}")
    status, _, body = http.send("POST", token_endpoint, form=exchange, headers={"DPoP": other.proof("POST", token_endpoint)})
    check(status == 400 and "dpop" in body.lower(), "the code exchange with a proof of a key other than dpop_jkt is refused", f"{status} {body}")

    def token_request(form, proof_key):
        return token_call(http, token_endpoint, form, proof_key)

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

    server_placement(http, meta, issuer, resource)
    print(f"{passed} passed, 0 failed")


def claims_of(jwt: str) -> dict:
    return json.loads(base64.urlsafe_b64decode(jwt.split(".")[1] + "=="))


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PinDevice:
    """One profile's device side of PIN proof v2: a device secret, the PIN key derived from it and
    a PIN, signatures over the server's nonces, and the profile's DPoP key."""

    def __init__(self, http, base, pin):
        self.http, self.base = http, base
        self.profile_id = "smoke-" + secrets.token_hex(6)
        self.device_secret, self.salt, self.iterations = secrets.token_bytes(32), secrets.token_bytes(16), 1000
        self.scalar = self.derive(pin)
        self.key = Key()

    def derive(self, pin):
        return pin_scalar(pin, self.salt, self.iterations, self.device_secret, self.profile_id)

    def call(self, path, body=None, headers=None, method="POST"):
        """(status, headers, JSON body or None) of an extension endpoint."""
        status, answer_headers, text = self.http.send(method, self.base + path, headers=headers, json_body=body)
        try:
            return status, answer_headers, json.loads(text) if text else None
        except ValueError:
            return status, answer_headers, None

    def bound(self, path, token, key=None, nonce=None, scheme="DPoP"):
        """Authorization and DPoP headers for a call that presents `token` (a proof by `key`)."""
        return {"Authorization": f"{scheme} {token}", "DPoP": (key or self.key).proof("POST", self.base + path, token, nonce=nonce)}

    def enrolment(self):
        return {"profile_id": self.profile_id, "salt": b64url(self.salt), "iterations": self.iterations, "public_key": b64url(public_key(self.scalar))}

    def challenge(self):
        return self.call("/pin/challenge", {"profile_id": self.profile_id})[2]

    def signed(self, label, scalar, subject=b""):
        """A body proven by `scalar` over a fresh challenge's nonce and `subject`."""
        nonce = self.challenge()["nonce"]
        return {"profile_id": self.profile_id, "nonce": nonce, "proof": b64url(sign(scalar, message(label, self.profile_id, unb64url(nonce), subject)))}


def server_placement(http, meta, issuer, resource):
    """The server placement against this fixture's extension API: enrolment with the sign-in's
    DPoP-bound token, PIN and biometric logins that answer idpyoidc tokens bound to the profile's
    DPoP key, the tokens at /token, /introspection and the resource server, failure counting,
    deregistration."""
    base = issuer + "/identityflow"
    device = PinDevice(http, base, "24680")
    token_endpoint = meta["token_endpoint"]

    def introspect(token):
        _, _, body = http.send("POST", meta["introspection_endpoint"], form={"token": token}, headers={"Authorization": "Basic " + RESOURCE_CREDENTIALS})
        return json.loads(body)

    def sign_in(key):
        _, exchange, _ = authorize(http, meta, key, issuer, require)
        status, body = token_call(http, token_endpoint, exchange, key)
        require(status == 200, "the PAR sign-in", body)
        return json.loads(body)

    signed_in = sign_in(device.key)
    check(claims_of(signed_in["access_token"])["cnf"]["jkt"] == device.key.thumbprint, "server placement: the PAR sign-in's token is bound to the profile's DPoP key")
    status, _, body = device.call("/identity-providers", method="GET")
    check(status == 200 and body == [{"id": "oidc", "name": "idpyoidc (PAR, DPoP)", "type": "browser"}], "extension: identity-providers lists the browser sign-in", str(body))
    status, _, _ = device.call("/mobile-auth/enrol", {})
    check(status == 404, "extension: mobile-auth (not served) answers a bare 404", str(status))

    # pin/enrol: the sign-in's DPoP-bound token, as a resource server takes it (RFC 9449 section 7).
    enrol, access = device.enrolment(), signed_in["access_token"]
    status, headers, body = device.call("/pin/enrol", enrol, {"Authorization": "Bearer " + access})
    check(status == 401 and 'DPoP error="invalid_token"' in headers.get("WWW-Authenticate", ""), "pin/enrol: the bound token as a Bearer token is refused (401 invalid_token)", f"{status} {headers.get('WWW-Authenticate')}")
    status, headers, body = device.call("/pin/enrol", enrol, {"Authorization": "DPoP " + access})
    check(status == 401 and 'error="invalid_dpop_proof"' in headers.get("WWW-Authenticate", ""), "pin/enrol: the token without a proof is refused (401 invalid_dpop_proof)", f"{status} {headers.get('WWW-Authenticate')}")
    status, headers, body = device.call("/pin/enrol", enrol, device.bound("/pin/enrol", access))
    nonce = headers.get("DPoP-Nonce")
    check(status == 401 and 'error="use_dpop_nonce"' in headers.get("WWW-Authenticate", "") and nonce and body["error"] == "use_dpop_nonce", "pin/enrol: a proof without the server's nonce is answered 401 use_dpop_nonce with DPoP-Nonce", f"{status} {headers}")
    status, headers, body = device.call("/pin/enrol", enrol, device.bound("/pin/enrol", access, key=Key(), nonce=nonce))
    check(status == 401 and 'error="invalid_token"' in headers.get("WWW-Authenticate", ""), "pin/enrol: a proof by another key is refused (401 invalid_token)", f"{status} {body}")
    wrong_ath = device.bound("/pin/enrol", access, nonce=nonce)
    wrong_ath["DPoP"] = device.key.proof("POST", base + "/pin/enrol", "another token", nonce=nonce)
    status, headers, body = device.call("/pin/enrol", enrol, wrong_ath)
    check(status == 401 and 'error="invalid_dpop_proof"' in headers.get("WWW-Authenticate", ""), "pin/enrol: a proof for another token (ath) is refused", f"{status} {body}")
    status, _, body = device.call("/pin/enrol", enrol, device.bound("/pin/enrol", access, nonce=nonce))
    check(status == 200 and body == {"max_failure_count": 3}, "pin/enrol: the token with the key's proof and the nonce enrols (max_failure_count 3)", f"{status} {body}")
    status, _, body = device.call(f"/profiles/{device.profile_id}", method="GET")
    check(status == 200 and body == {"profile_id": device.profile_id}, "profiles/{id}: the profile exists", f"{status} {body}")

    # pin/verify: issues tokens, so asks for a proof and a nonce as an authorization server (section 8).
    challenge = device.challenge()
    check(len(unb64url(challenge["nonce"])) == 32 and challenge["failure_count"] == 0 and challenge["version"] == 2 and challenge["iterations"] == 1000, "pin/challenge: a 32-byte nonce, the parameters, version 2", str(challenge))
    login = {"profile_id": device.profile_id, "nonce": challenge["nonce"], "proof": b64url(sign(device.derive("11111"), message(LOGIN, device.profile_id, unb64url(challenge["nonce"]))))}
    status, _, body = device.call("/pin/verify", login)
    check(status == 400 and body["error"] == "invalid_dpop_proof", "pin/verify without a DPoP proof: 400 invalid_dpop_proof", f"{status} {body}")
    status, headers, body = device.call("/pin/verify", login, {"DPoP": device.key.proof("POST", base + "/pin/verify")})
    as_nonce = headers.get("DPoP-Nonce")
    check(status == 400 and body["error"] == "use_dpop_nonce" and as_nonce and as_nonce != nonce, "pin/verify: the first proof is answered 400 use_dpop_nonce with its own DPoP-Nonce", f"{status} {body}")
    status, _, body = device.call("/pin/verify", login, {"DPoP": device.key.proof("POST", base + "/pin/verify", nonce=as_nonce)})
    check(status == 401 and body.get("error") == "invalid_pin" and body.get("failure_count") == 1 and body.get("remaining_failure_count") == 2, "pin/verify, a wrong PIN after the nonce round: 401 invalid_pin with the counters (the challenge was not spent by the round)", f"{status} {body}")
    check(device.challenge()["failure_count"] == 1, "pin/challenge: the wrong PIN is counted")
    pin_body = device.signed(LOGIN, device.scalar)
    status, _, body = device.call("/pin/verify", pin_body, {"DPoP": Key().proof("POST", base + "/pin/verify", nonce=as_nonce)})
    other_tokens = body if status == 200 else {}
    check(status == 200 and claims_of(body["access_token"])["cnf"]["jkt"] != device.key.thumbprint, "pin/verify binds the tokens to the key of the proof it is sent with", f"{status} {body}")
    status, headers, body = device.call("/pin/verify", device.signed(LOGIN, device.scalar), {"DPoP": device.key.proof("POST", base + "/pin/verify", nonce=as_nonce)})
    tokens = body if status == 200 else {}
    check(status == 200 and tokens.get("token_type") == "DPoP" and {"access_token", "refresh_token", "expires_in", "scope"} <= set(tokens) and "id_token" not in tokens, "pin/verify, the right PIN: 200 token response, token_type DPoP", f"{status} {body}")
    claims = claims_of(tokens["access_token"])
    check(claims["cnf"]["jkt"] == device.key.thumbprint and claims.get("client_id") == CLIENT_ID and tokens["scope"] == "openid profile email", "pin/verify: an idpyoidc JWT access token of identityflow-tests with cnf.jkt of the proof's key", str(claims))
    check(device.challenge()["failure_count"] == 0, "pin/challenge: the right PIN reset the counter")
    info = introspect(tokens["access_token"])
    check(info.get("active") is True and info.get("token_type") == "DPoP" and info.get("sub") == introspect(signed_in["access_token"])["sub"], "introspection: the PIN login's access token is active, DPoP, the user's", str(info))

    # The tokens at idpyoidc's own endpoints and the resource server.
    refresh = {"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"], "client_id": CLIENT_ID}
    status, body = token_call(http, token_endpoint, refresh, Key())
    check(status == 400 and "another DPoP key" in body, "/token: the PIN login's refresh token with another key is refused", f"{status} {body}")
    status, body = token_call(http, token_endpoint, refresh, device.key, nonce=as_nonce)
    refreshed = json.loads(body) if status == 200 else {}
    check(status == 200 and refreshed.get("token_type") == "DPoP" and claims_of(refreshed["access_token"])["cnf"]["jkt"] == device.key.thumbprint, "/token: the PIN login's refresh token with the key refreshes (bound to the same key)", f"{status} {body}")
    access = refreshed["access_token"]
    status, headers, _ = http.send("GET", resource, headers={"Authorization": "DPoP " + access, "DPoP": device.key.proof("GET", resource, access)})
    rs_nonce = headers.get("DPoP-Nonce")
    status, _, body = http.send("GET", resource, headers={"Authorization": "DPoP " + access, "DPoP": device.key.proof("GET", resource, access, nonce=rs_nonce)})
    check(status == 200 and json.loads(body).get("sub") == info["sub"], "the resource server accepts the refreshed PIN-login token with the key's proof", f"{status} {body}")

    # Biometrics: enrolment with the user's bound token and the PIN key's proof, login by the biometric key.
    biometric = ec.generate_private_key(ec.SECP256R1())
    point = biometric.public_key().public_numbers()
    biometric_key = b"\x04" + point.x.to_bytes(32, "big") + point.y.to_bytes(32, "big")
    enrol_biometric = {**device.signed(BIOMETRIC_ENROL, device.scalar, biometric_key), "public_key": b64url(biometric_key)}
    status, headers, body = device.call("/biometric/enrol", enrol_biometric, device.bound("/biometric/enrol", access, nonce=as_nonce))
    check(status == 401 and 'error="use_dpop_nonce"' in headers.get("WWW-Authenticate", ""), "biometric/enrol: the token endpoint's nonce is not this role's (401 use_dpop_nonce)", f"{status} {body}")
    nonce = headers.get("DPoP-Nonce")
    status, _, body = device.call("/biometric/enrol", enrol_biometric, device.bound("/biometric/enrol", access, nonce=nonce))
    check(status == 204, "biometric/enrol: the bound token with a proof, and the PIN key's proof: 204", f"{status} {body}")
    pin_nonce = device.challenge()["nonce"]
    r, s = decode_dss_signature(biometric.sign(message(BIOMETRIC_LOGIN, device.profile_id, unb64url(pin_nonce)), ec.ECDSA(hashes.SHA256())))
    login = {"profile_id": device.profile_id, "nonce": pin_nonce, "proof": b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))}
    status, _, body = device.call("/biometric/verify", login, {"DPoP": device.key.proof("POST", base + "/biometric/verify", nonce=as_nonce)})
    biometric_tokens = body if status == 200 else {}
    check(status == 200 and body.get("token_type") == "DPoP" and claims_of(body["access_token"])["cnf"]["jkt"] == device.key.thumbprint, "biometric/verify: DPoP tokens bound to the proof's key", f"{status} {body}")
    live = introspect(biometric_tokens["refresh_token"]).get("active") is True
    status, _, body = http.send("POST", meta["revocation_endpoint"], form={"token": biometric_tokens["refresh_token"], "token_type_hint": "refresh_token", "client_id": CLIENT_ID})
    check(live and status == 200 and introspect(biometric_tokens["refresh_token"]).get("active") is not True, "/revoke revokes the biometric login's refresh token (a logout)", f"{status} {body}")

    # A first enrolment needs a sign-in bound to no profile; deregistration revokes every sign-in's tokens.
    second = PinDevice(http, base, "24680")
    status, _, body = device.call("/pin/enrol", second.enrolment(), device.bound("/pin/enrol", access, nonce=nonce))
    check(status == 403 and body["error"] == "token_not_allowed", "pin/enrol: a PIN login's token enrols no other profile (403 token_not_allowed)", f"{status} {body}")
    status, _, body = device.call("/deregister", device.signed(DEREGISTER, device.derive("00000")))
    check(status == 401 and body.get("failure_count") == 1, "deregister with a wrong PIN key's proof: 401 invalid_pin, counted", f"{status} {body}")
    status, _, body = device.call("/deregister", device.signed(DEREGISTER, device.scalar))
    check(status == 204, "deregister with the PIN key's proof: 204", f"{status} {body}")
    status, _, body = device.call(f"/profiles/{device.profile_id}", method="GET")
    check(status == 404 and body["error"] == "unknown_profile", "profiles/{id} after deregistration: 404 unknown_profile", f"{status} {body}")
    revoked = [signed_in["access_token"], tokens["access_token"], access, biometric_tokens["access_token"], other_tokens["access_token"], refreshed["refresh_token"]]
    check(not any(introspect(token).get("active") for token in revoked), "deregistration revoked the tokens of the profile's sign-ins (introspection: inactive)")
    status, body = token_call(http, token_endpoint, {**refresh, "refresh_token": refreshed["refresh_token"]}, device.key)
    check(status == 400, "/token: the deregistered profile's refresh token is refused", f"{status} {body}")
    status, _, body = http.send("GET", resource, headers={"Authorization": "DPoP " + access, "DPoP": device.key.proof("GET", resource, access, nonce=rs_nonce)})
    check(status == 401, "the resource server refuses the deregistered profile's token", f"{status} {body}")

    # Three wrong PINs deregister (410 for ever) and revoke the profile's sign-in.
    second_in = sign_in(second.key)
    access = second_in["access_token"]
    status, _, body = second.call("/pin/enrol", second.enrolment(), second.bound("/pin/enrol", access, nonce=nonce))
    require(status == 200, "second profile enrolled", f"{status} {body}")
    answers = [second.call("/pin/verify", second.signed(LOGIN, second.derive("00000")), {"DPoP": second.key.proof("POST", base + "/pin/verify", nonce=as_nonce)}) for _ in range(3)]
    check([(a[0], a[2]["error"]) for a in answers] == [(401, "invalid_pin"), (401, "invalid_pin"), (410, "user_deregistered")], "three wrong PINs: 401, 401, 410 user_deregistered", str([a[2] for a in answers]))
    status, _, body = second.call("/pin/challenge", {"profile_id": second.profile_id})
    check(status == 410 and body["error"] == "user_deregistered", "pin/challenge after the lockout: 410 user_deregistered", f"{status} {body}")
    check(introspect(access).get("active") is not True, "the lockout revoked the enrolling sign-in's token")


if __name__ == "__main__":
    main()
