#!/usr/bin/env python3
"""Smoke test of a running fixture: the browser login replayed with requests, OAuth edge cases,
custom registration and PIN login. Exits non-zero when any check fails.

    .venv/bin/python smoke.py [base-url]      (default http://127.0.0.1:$IDENTITYFLOW_FIXTURE_PORT or 8765)
"""
import base64
import hashlib
import json
import os
import secrets
import sys
from html.parser import HTMLParser
from urllib.parse import parse_qs, urljoin, urlsplit

import requests
from jwcrypto import jwk, jwt

from pin_proof_example import CHANGE, LOGIN, b64url, message, pin_scalar, public_key, sign

DEREGISTER = b"identityflow-deregister-v2"

BASE = (sys.argv[1] if len(sys.argv) > 1 else f"http://127.0.0.1:{os.environ.get('IDENTITYFLOW_FIXTURE_PORT', '8765')}").rstrip("/")
CLIENT = "identityflow-tests"
AUTOCONSENT = "identityflow-autoconsent"
REDIRECT = "identityflow://callback"
TIMEOUT = 10
RESULTS = []


def check(name, condition, detail=""):
    RESULTS.append((name, bool(condition)))
    print(f"{'ok  ' if condition else 'FAIL'} {name}" + ("" if condition else f"  -- {detail}"))
    return bool(condition)


def error_of(response):
    try:
        return response.json().get("error")
    except ValueError:
        return None


class FormReader(HTMLParser):
    """Collects the <input> name/value pairs of an HTML page."""

    def __init__(self):
        super().__init__()
        self.inputs = []

    def handle_starttag(self, tag, attrs):
        if tag == "input":
            self.inputs.append(dict(attrs))


def hidden_fields(html):
    reader = FormReader()
    reader.feed(html)
    return {i["name"]: i.get("value", "") for i in reader.inputs if i.get("type") == "hidden" and i.get("name")}


# MARK: - Browser login (the replay documented in README.md)


def pkce_pair():
    verifier = b64url(secrets.token_bytes(32))
    return verifier, b64url(hashlib.sha256(verifier.encode("ascii")).digest())


def authorize_params(client_id, challenge, state, nonce, redirect=REDIRECT, method="S256"):
    return {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": redirect,
        "scope": "openid profile email",
        "state": state,
        "nonce": nonce,
        "code_challenge": challenge,
        "code_challenge_method": method,
    }


def log_in(session, discovery, username, password):
    """Returns the session logged in, having gone authorize -> login page -> POST credentials."""
    verifier, challenge = pkce_pair()
    params = authorize_params(CLIENT, challenge, "s", "n")
    r = session.get(discovery["authorization_endpoint"], params=params, allow_redirects=False, timeout=TIMEOUT)
    check("authorize without a session redirects to the login page", r.status_code == 302 and "/accounts/login/" in r.headers.get("Location", ""), r.status_code)
    login_url = urljoin(BASE, r.headers["Location"])
    r = session.get(login_url, timeout=TIMEOUT)
    fields = hidden_fields(r.text)
    check("login page has csrfmiddlewaretoken and next", "csrfmiddlewaretoken" in fields and fields.get("next", "").startswith("/o/authorize/"), fields)
    check("login page sets the csrftoken cookie", "csrftoken" in session.cookies)
    bad = dict(fields, username=username, password="wrong")
    r = session.post(login_url, data=bad, allow_redirects=False, timeout=TIMEOUT)
    check("wrong password shows the form again (200)", r.status_code == 200 and "login-error" in r.text, r.status_code)
    fields = hidden_fields(r.text)
    r = session.post(login_url, data=dict(fields, username=username, password=password), allow_redirects=False, timeout=TIMEOUT)
    check("login POST redirects to next", r.status_code == 302 and r.headers.get("Location", "").startswith("/o/authorize/"), r.status_code)
    check("login sets the sessionid cookie", "sessionid" in session.cookies)


def authorize(session, discovery, client_id, allow=True, redirect=REDIRECT):
    """Authorize (with consent when the client asks for it); returns (verifier, state, nonce, Location)."""
    verifier, challenge = pkce_pair()
    state, nonce = secrets.token_urlsafe(12), secrets.token_urlsafe(12)
    params = authorize_params(client_id, challenge, state, nonce, redirect)
    r = session.get(discovery["authorization_endpoint"], params=params, allow_redirects=False, timeout=TIMEOUT)
    if r.status_code == 200:
        fields = hidden_fields(r.text)
        if allow:
            fields["allow"] = "Authorize"
        r = session.post(r.url, data=fields, allow_redirects=False, timeout=TIMEOUT)
    return verifier, state, nonce, r.headers.get("Location", ""), r


def query_of(location):
    return {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}


def exchange(discovery, code, verifier, client_id=CLIENT, redirect=REDIRECT):
    return requests.post(
        discovery["token_endpoint"],
        data={"grant_type": "authorization_code", "code": code, "redirect_uri": redirect, "client_id": client_id, "code_verifier": verifier},
        timeout=TIMEOUT,
    )


def userinfo(discovery, access_token):
    return requests.get(discovery["userinfo_endpoint"], headers={"Authorization": f"Bearer {access_token}"}, timeout=TIMEOUT)


def browser_flow(discovery):
    session = requests.Session()
    log_in(session, discovery, "alice", "alice-password-1")

    r = session.get(discovery["authorization_endpoint"], params=authorize_params(CLIENT, pkce_pair()[1], "s", "n"), allow_redirects=False, timeout=TIMEOUT)
    fields = hidden_fields(r.text)
    check("consent form shows with its hidden fields", r.status_code == 200 and {"csrfmiddlewaretoken", "redirect_uri", "scope", "client_id", "state", "response_type", "code_challenge", "code_challenge_method", "nonce"} <= set(fields), sorted(fields))

    verifier, state, nonce, location, _ = authorize(session, discovery, CLIENT)
    query = query_of(location)
    check("consent allow redirects to identityflow://callback with code and state", location.startswith(REDIRECT + "?") and "code" in query and query.get("state") == state, location)

    r = exchange(discovery, query.get("code", ""), verifier)
    tokens = r.json() if r.status_code == 200 else {}
    check("code exchange with PKCE returns access, refresh and ID tokens", {"access_token", "refresh_token", "id_token"} <= set(tokens) and tokens.get("token_type") == "Bearer", r.text)

    keys = jwk.JWKSet.from_json(requests.get(discovery["jwks_uri"], timeout=TIMEOUT).text)
    token = jwt.JWT(jwt=tokens.get("id_token", ""), key=keys, algs=["RS256"])
    claims = json.loads(token.claims)
    check("ID token is RS256, signed by a JWKS key, with iss/aud/nonce", claims.get("iss") == discovery["issuer"] and claims.get("aud") == CLIENT and claims.get("nonce") == nonce, claims)

    r = exchange(discovery, query.get("code", ""), verifier)
    check("reused code -> invalid_grant", r.status_code == 400 and error_of(r) == "invalid_grant", r.text)

    r = requests.post(discovery["token_endpoint"], data={"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"], "client_id": CLIENT}, timeout=TIMEOUT)
    refreshed = r.json() if r.status_code == 200 else {}
    check("refresh returns a new (rotated) refresh token", refreshed.get("refresh_token") not in (None, tokens["refresh_token"]), r.text)

    r = userinfo(discovery, refreshed.get("access_token", ""))
    check("userinfo answers alice's claims", r.status_code == 200 and r.json().get("preferred_username") == "alice" and r.json().get("email") == "alice@example.test", r.text)

    metadata = requests.get(f"{BASE}/o/.well-known/oauth-authorization-server", timeout=TIMEOUT).json()
    r = requests.post(metadata["revocation_endpoint"], data={"token": refreshed.get("access_token", ""), "token_type_hint": "access_token", "client_id": CLIENT}, timeout=TIMEOUT)
    check("revocation answers 200", r.status_code == 200, r.status_code)
    check("revoked access token is refused by userinfo (401)", userinfo(discovery, refreshed.get("access_token", "")).status_code == 401)

    r = requests.post(discovery["token_endpoint"], data={"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"], "client_id": CLIENT}, timeout=TIMEOUT)
    check("rotated-out refresh token -> invalid_grant", r.status_code == 400 and error_of(r) == "invalid_grant", r.text)

    verifier, state, nonce, location, _ = authorize(session, discovery, AUTOCONSENT)
    check("autoconsent client redirects without a consent form", location.startswith(REDIRECT + "?code="), location)
    r = exchange(discovery, query_of(location).get("code", ""), "wrong-" + verifier, client_id=AUTOCONSENT)
    check("wrong code_verifier -> invalid_grant", r.status_code == 400 and error_of(r) == "invalid_grant", r.text)

    verifier, state, nonce, location, _ = authorize(session, discovery, AUTOCONSENT)
    r = exchange(discovery, query_of(location).get("code", ""), verifier, client_id=AUTOCONSENT, redirect="http://127.0.0.1/callback")
    # oauthlib answers invalid_request ("Mismatching redirect URI."), not RFC 6749's invalid_grant.
    check("token request with another redirect_uri -> 400 invalid_request", r.status_code == 400 and error_of(r) == "invalid_request", r.text)

    r = exchange(discovery, "whatever", verifier, client_id="no-such-client")
    check("unknown client at the token endpoint -> invalid_client (401)", r.status_code == 401 and error_of(r) == "invalid_client", r.text)

    _, _, _, location, r = authorize(session, discovery, CLIENT, redirect="identityflow://elsewhere")
    check("unregistered redirect_uri -> error page, no redirect", r.status_code == 400 and not location, (r.status_code, location))
    _, _, _, location, r = authorize(session, discovery, "no-such-client")
    check("unknown client at authorize -> error page, no redirect", r.status_code == 400 and not location, (r.status_code, location))

    verifier, state, nonce, location, _ = authorize(session, discovery, CLIENT, allow=False)
    query = query_of(location)
    check("consent deny -> redirect with error=access_denied and state", location.startswith(REDIRECT + "?") and query.get("error") == "access_denied" and query.get("state") == state, location)

    verifier, challenge = pkce_pair()
    r = session.get(discovery["authorization_endpoint"], params=authorize_params(CLIENT, verifier, "s", "n", method="plain"), allow_redirects=False, timeout=TIMEOUT)
    check("PKCE plain -> redirect with error=invalid_request", r.status_code == 302 and query_of(r.headers.get("Location", "")).get("error") == "invalid_request", (r.status_code, r.headers.get("Location")))
    params = authorize_params(CLIENT, challenge, "s", "n")
    del params["code_challenge_method"]
    r = session.get(discovery["authorization_endpoint"], params=params, allow_redirects=False, timeout=TIMEOUT)
    check("code_challenge without a method (plain) is refused", r.status_code == 302 and "error=" in r.headers.get("Location", ""), (r.status_code, r.headers.get("Location")))
    params = authorize_params(CLIENT, challenge, "s", "n")
    del params["code_challenge"], params["code_challenge_method"]
    r = session.get(discovery["authorization_endpoint"], params=params, allow_redirects=False, timeout=TIMEOUT)
    check("authorize without PKCE -> redirect with error=invalid_request", r.status_code == 302 and query_of(r.headers.get("Location", "")).get("error") == "invalid_request", (r.status_code, r.headers.get("Location")))


# MARK: - Extension endpoints


def api(method, path, body=None, token=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return requests.request(method, f"{BASE}/identityflow{path}", json=body, headers=headers, timeout=TIMEOUT)


def custom_registration():
    r = api("GET", "/identity-providers")
    ids = [(p["id"], p["type"], p.get("steps")) for p in r.json()]
    check("identity providers: oidc, custom-one (1 step), custom-two (2 steps)", ids == [("oidc", "browser", None), ("custom-one", "custom", 1), ("custom-two", "custom", 2)], ids)

    r = api("POST", "/registration/custom/custom-one/complete", {"session": None, "data": None})
    check("one-step complete, no data -> 2000 with tokens", r.status_code == 200 and r.json()["status"] == 2000 and "access_token" in r.json().get("tokens", {}), r.text)
    for status in (2001, 4001, 5001):
        r = api("POST", "/registration/custom/custom-one/complete", {"session": None, "data": f"status:{status}"})
        body = r.json()
        check(f"one-step complete status:{status} -> {status}, tokens only for 2xxx", body.get("status") == status and body.get("data") == f"status:{status}" and (("tokens" in body) == (status < 3000)), r.text)
    r = api("POST", "/registration/custom/custom-one/complete", {"session": None, "data": "expire"})
    check("one-step complete expire -> 410 registration_expired", r.status_code == 410 and error_of(r) == "registration_expired", r.text)

    for step in ("init", "complete"):
        for idp in ("nope", "oidc"):
            r = api("POST", f"/registration/custom/{idp}/{step}", {"data": None, "session": None})
            check(f"{step} for '{idp}' -> 404 unknown_identity_provider", r.status_code == 404 and error_of(r) == "unknown_identity_provider", r.text)

    r = api("POST", "/registration/custom/custom-two/init", {"data": None})
    session = r.json().get("session", "")
    check("two-step init -> 2000 with data init-ok:<session>", r.json().get("status") == 2000 and r.json().get("data") == f"init-ok:{session}" and session, r.text)
    for status in (4100, 5100):
        r = api("POST", "/registration/custom/custom-two/init", {"data": f"status:{status}"})
        check(f"two-step init status:{status} -> {status}, data echoed", r.json().get("status") == status and r.json().get("data") == f"status:{status}", r.text)
    r = api("POST", "/registration/custom/custom-two/init", {"data": "expire"})
    check("two-step init expire -> 410 registration_expired", r.status_code == 410 and error_of(r) == "registration_expired", r.text)

    r = api("POST", "/registration/custom/custom-two/complete", {"session": session, "data": "status:4002"})
    check("two-step complete status:4002 -> 4002, no tokens, session kept", r.json().get("status") == 4002 and "tokens" not in r.json(), r.text)
    r = api("POST", "/registration/custom/custom-two/complete", {"session": session, "data": "answer"})
    check("two-step complete retry -> 2000 with tokens", r.json().get("status") == 2000 and "refresh_token" in r.json().get("tokens", {}), r.text)
    r = api("POST", "/registration/custom/custom-two/complete", {"session": session, "data": "answer"})
    check("two-step complete with a used session -> 410", r.status_code == 410 and error_of(r) == "registration_expired", r.text)
    r = api("POST", "/registration/custom/custom-two/complete", {"session": None, "data": "answer"})
    check("two-step complete without a session -> 410", r.status_code == 410 and error_of(r) == "registration_expired", r.text)
    session = api("POST", "/registration/custom/custom-two/init", {"data": None}).json()["session"]
    r = api("POST", "/registration/custom/custom-two/complete", {"session": session, "data": "status:5003"})
    check("two-step complete status:5003 -> 5003, no tokens", r.json().get("status") == 5003 and "tokens" not in r.json(), r.text)
    session = api("POST", "/registration/custom/custom-two/init", {"data": None}).json()["session"]
    r = api("POST", "/registration/custom/custom-two/complete", {"session": session, "data": "expire"})
    check("two-step complete expire -> 410", r.status_code == 410 and error_of(r) == "registration_expired", r.text)


def register_custom_user():
    return api("POST", "/registration/custom/custom-one/complete", {"session": None, "data": None}).json()["tokens"]


class PinDevice:
    """One profile's client side (PIN proof v2): a device secret, the PIN key derived with it,
    signatures over the server's nonces."""

    def __init__(self, profile_id, pin):
        self.profile_id, self.iterations = profile_id, 1000
        self.device_secret = secrets.token_bytes(32)
        self._new_key(pin)

    def _new_key(self, pin):
        self.salt = secrets.token_bytes(16)
        self.scalar = pin_scalar(pin, self.salt, self.iterations, self.device_secret, self.profile_id)

    def enrol(self, access_token, pin=None):
        """First enrolment, or with `pin` a PIN change signed by the current key (kept unless it succeeds)."""
        body = {"profile_id": self.profile_id, "iterations": self.iterations}
        salt, scalar = self.salt, self.scalar
        if pin is not None:
            salt = secrets.token_bytes(16)
            scalar = pin_scalar(pin, salt, self.iterations, self.device_secret, self.profile_id)
            nonce = self.challenge().json().get("nonce", "")
            raw = base64.urlsafe_b64decode(nonce + "=" * (-len(nonce) % 4))
            body["nonce"] = nonce
            body["proof"] = b64url(sign(self.scalar, message(CHANGE, self.profile_id, raw, public_key(scalar))))
        body["salt"] = b64url(salt)
        body["public_key"] = b64url(public_key(scalar))
        answer = api("POST", "/pin/enrol", body, token=access_token)
        if answer.status_code == 200:
            self.salt, self.scalar = salt, scalar
        return answer

    def challenge(self):
        return api("POST", "/pin/challenge", {"profile_id": self.profile_id})

    def proven(self, label):
        """A body for a credential change without a subject: a fresh nonce signed by the PIN key."""
        nonce = self.challenge().json().get("nonce", "")
        raw = base64.urlsafe_b64decode(nonce + "=" * (-len(nonce) % 4))
        return {"profile_id": self.profile_id, "nonce": nonce, "proof": b64url(sign(self.scalar, message(label, self.profile_id, raw)))}

    def proof(self, pin, body, nonce):
        scalar = pin_scalar(pin, base64.urlsafe_b64decode(body["salt"] + "=="), body["iterations"], self.device_secret, self.profile_id)
        raw = base64.urlsafe_b64decode(nonce + "=" * (-len(nonce) % 4))
        return b64url(sign(scalar, message(LOGIN, self.profile_id, raw)))

    def login(self, pin, nonce=None):
        """Returns (challenge answer, verify answer)."""
        c = self.challenge()
        if c.status_code != 200:
            return c, c
        body = c.json()
        nonce = nonce or body["nonce"]
        return c, api("POST", "/pin/verify", {"profile_id": self.profile_id, "nonce": nonce, "proof": self.proof(pin, body, nonce)})


def pin_login():
    user = register_custom_user()
    other = register_custom_user()
    device = PinDevice(f"smoke-{secrets.token_hex(6)}", "24680")

    check("enrol without a token -> 401 invalid_token", device.enrol(None).status_code == 401)
    r = device.enrol("not-a-token")
    check("enrol with an unknown token -> 401 invalid_token", r.status_code == 401 and error_of(r) == "invalid_token", r.text)
    r = device.enrol(user["access_token"])
    maximum = r.json().get("max_failure_count", 0) if r.status_code == 200 else 0
    check("enrol -> 200 with max_failure_count", r.status_code == 200 and maximum >= 2, r.text)
    check("GET profile -> 200", api("GET", f"/profiles/{device.profile_id}").json() == {"profile_id": device.profile_id})
    r = api("POST", "/pin/challenge", {"profile_id": "no-such-profile"})
    check("challenge for an unknown profile -> 404 unknown_profile", r.status_code == 404 and error_of(r) == "unknown_profile", r.text)

    c, r = device.login("24680")
    nonce = c.json()["nonce"]
    check("challenge: 32-byte nonce, salt, iterations, counters", len(base64.urlsafe_b64decode(nonce + "=")) == 32 and c.json()["failure_count"] == 0 and c.json()["max_failure_count"] == maximum, c.text)
    pin_tokens = r.json() if r.status_code == 200 else {}
    check("right PIN -> 200 token response", {"access_token", "refresh_token", "expires_in", "scope"} <= set(pin_tokens) and pin_tokens.get("token_type") == "Bearer", r.text)
    r = api("POST", "/pin/verify", {"profile_id": device.profile_id, "nonce": nonce, "proof": device.proof("24680", c.json(), nonce)})
    check("reused nonce -> 400 invalid_nonce", r.status_code == 400 and error_of(r) == "invalid_nonce", r.text)

    _, r = device.login("11111")
    body = r.json()
    check("wrong PIN -> 401 invalid_pin with counters", r.status_code == 401 and body.get("error") == "invalid_pin" and body.get("failure_count") == 1 and body.get("remaining_failure_count") == maximum - 1, r.text)
    c = device.challenge()
    r = api("POST", "/pin/verify", {"profile_id": device.profile_id, "nonce": c.json()["nonce"], "proof": "***"})
    check("malformed proof -> 400 invalid_request", r.status_code == 400 and error_of(r) == "invalid_request", r.text)
    r = api("POST", "/pin/verify", {"profile_id": device.profile_id, "nonce": b64url(secrets.token_bytes(32)), "proof": b64url(secrets.token_bytes(64))})
    check("unknown nonce -> 400 invalid_nonce", r.status_code == 400 and error_of(r) == "invalid_nonce", r.text)
    check("neither counted as a failure", device.challenge().json()["failure_count"] == 1)
    _, r = device.login("24680")
    check("right PIN after a wrong one -> 200", r.status_code == 200, r.text)
    check("success resets failure_count to 0", device.challenge().json()["failure_count"] == 0)

    r = device.enrol(other["access_token"], pin="13572")
    check("re-enrol with another user's token -> 403", r.status_code == 403, r.text)
    r = api("POST", "/pin/enrol", {"profile_id": device.profile_id, "salt": b64url(device.salt), "iterations": 1000,
                                   "public_key": b64url(public_key(device.scalar))}, token=pin_tokens["access_token"])
    check("re-enrol without a proof -> 403 proof_required", r.status_code == 403 and error_of(r) == "proof_required", r.text)
    r = device.enrol(pin_tokens["access_token"], pin="97531")
    check("PIN change signed by the current key -> 200", r.status_code == 200, r.text)
    _, r = device.login("24680")
    check("old PIN after change -> 401 invalid_pin", r.status_code == 401 and r.json().get("failure_count") == 1, r.text)
    _, r = device.login("97531")
    check("new PIN after change -> 200", r.status_code == 200, r.text)
    last_tokens = r.json()

    for attempt in range(1, maximum):
        _, r = device.login("00000")
        check(f"wrong PIN {attempt}/{maximum} -> 401, remaining {maximum - attempt}", r.status_code == 401 and r.json().get("remaining_failure_count") == maximum - attempt, r.text)
    _, r = device.login("00000")
    check(f"wrong PIN {maximum}/{maximum} -> 410 user_deregistered", r.status_code == 410 and error_of(r) == "user_deregistered", r.text)
    for name, r in [
        ("challenge", device.challenge()),
        ("GET profile", api("GET", f"/profiles/{device.profile_id}")),
        ("verify", api("POST", "/pin/verify", {"profile_id": device.profile_id, "nonce": b64url(bytes(32)), "proof": b64url(bytes(32))})),
    ]:
        check(f"{name} after lockout -> 410 user_deregistered", r.status_code == 410 and error_of(r) == "user_deregistered", r.text)
    discovery = requests.get(f"{BASE}/o/.well-known/openid-configuration", timeout=TIMEOUT).json()
    check("lockout revoked the profile's PIN-login tokens", userinfo(discovery, last_tokens["access_token"]).status_code == 401)
    check("lockout revoked the enrolment token", userinfo(discovery, user["access_token"]).status_code == 401)
    r = requests.post(discovery["token_endpoint"], data={"grant_type": "refresh_token", "refresh_token": last_tokens["refresh_token"], "client_id": CLIENT}, timeout=TIMEOUT)
    check("lockout revoked the refresh token", error_of(r) == "invalid_grant", r.text)

    second = PinDevice(f"smoke-{secrets.token_hex(6)}", "24680")
    check("second profile enrols", second.enrol(other["access_token"]).status_code == 200)
    third = PinDevice(f"smoke-{secrets.token_hex(6)}", "24680")
    r = third.enrol(other["access_token"])
    check("a sign-in bound to a profile enrols no other -> 403 token_not_allowed", r.status_code == 403 and error_of(r) == "token_not_allowed", r.text)
    r = api("DELETE", f"/profiles/{second.profile_id}", token=other["access_token"])
    check("DELETE profile -> 405 (deregistration needs the PIN key's proof)", r.status_code == 405, r.text)
    forged = second.proven(DEREGISTER)
    forged["proof"] = b64url(sign(third.scalar, b"not the message"))
    r = api("POST", "/deregister", forged)
    check("deregister with a wrong proof -> 401 invalid_pin, counted", r.status_code == 401 and r.json().get("failure_count") == 1, r.text)
    r = api("POST", "/deregister", second.proven(DEREGISTER))
    check("deregister with the PIN key's proof -> 204", r.status_code == 204, r.text)
    r = api("GET", f"/profiles/{second.profile_id}")
    check("deregistered profile -> 404 unknown_profile", r.status_code == 404 and error_of(r) == "unknown_profile", r.text)
    check("deregistration revoked the enrolling sign-in's token", userinfo(discovery, other["access_token"]).status_code == 401)
    r = api("POST", "/deregister", {"profile_id": second.profile_id, "nonce": b64url(bytes(32)), "proof": b64url(sign(second.scalar, b"x"))})
    check("deregister of an unknown profile -> 404", r.status_code == 404, r.text)


def main():
    try:
        r = requests.get(f"{BASE}/o/.well-known/openid-configuration", timeout=TIMEOUT)
        discovery = r.json()
    except (requests.RequestException, ValueError) as error:
        print(f"FAIL discovery at {BASE}: {error}")
        return 1
    check("discovery issuer is BASE/o", discovery.get("issuer") == f"{BASE}/o", discovery.get("issuer"))
    check("discovery advertises jwks and userinfo", all(k in discovery for k in ("jwks_uri", "userinfo_endpoint")))
    check("stock discovery names no revocation_endpoint", "revocation_endpoint" not in discovery)
    metadata = requests.get(f"{BASE}/o/.well-known/oauth-authorization-server", timeout=TIMEOUT).json()
    check("the RFC 8414 document names the revocation endpoint and the same issuer", "revocation_endpoint" in metadata and metadata.get("issuer") == discovery.get("issuer"), metadata)
    check("discovery offers only S256", discovery.get("code_challenge_methods_supported") == ["S256"])
    for part in (browser_flow, custom_registration, pin_login):
        try:
            part(discovery) if part is browser_flow else part()
        except Exception as error:  # a crash in one part is a failure, the others still run
            check(f"{part.__name__} ran to the end", False, repr(error))
    failed = sum(1 for _, ok in RESULTS if not ok)
    print(f"{len(RESULTS) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
