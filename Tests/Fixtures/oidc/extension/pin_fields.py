"""The request fields of the PIN endpoints and the error they answer, checked without Django: shared
by this fixture's views (pin.py, http.py) and the idpyoidc fixture's extension API
(../../oidc-dpop/extension_profiles.py), so both refuse the same malformed requests alike.

Any malformed request answers `400 invalid_request` and changes nothing (docs/extension-api.openapi.yaml).
"""
import json
import re

from . import pin_proof

MIN_ITERATIONS, MAX_ITERATIONS = 1, 10_000_000
PROFILE_ID = re.compile(r"[A-Za-z0-9._~-]{1,128}")


class ApiError(Exception):
    """An error answer: {"error": code, "error_description": text, **extra} with an HTTP status."""

    def __init__(self, status, code, description, **extra):
        super().__init__(description)
        self.status, self.code, self.description, self.extra = status, code, description, extra

    def body(self):
        return {"error": self.code, "error_description": self.description, **self.extra}


def json_object(raw):
    """The JSON object of a request body (bytes); 400 invalid_request when it is not one."""
    try:
        body = json.loads(raw or b"null")
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "invalid_request", "The body is not JSON.")
    if not isinstance(body, dict):
        raise ApiError(400, "invalid_request", "The body must be a JSON object.")
    return body


def field(body, name, kind, optional=False):
    """body[name] when it has the given type (None allowed when optional); 400 otherwise."""
    value = body.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ApiError(400, "invalid_request", f"'{name}' is missing or has the wrong type.")
    return value


def decoded(body, name, sizes):
    """The bytes of the unpadded base64url body[name], of one of the lengths in `sizes`; 400 otherwise."""
    value = field(body, name, str)
    try:
        raw = pin_proof.b64url_decode(value)
    except ValueError:
        raise ApiError(400, "invalid_request", f"'{name}' is not unpadded base64url.")
    if len(raw) not in sizes:
        raise ApiError(400, "invalid_request", f"'{name}' has the wrong length.")
    return raw


def profile_id(body):
    value = field(body, "profile_id", str)
    if not PROFILE_ID.fullmatch(value):
        raise ApiError(400, "invalid_request", "'profile_id' must be 1 to 128 of A-Z a-z 0-9 . _ ~ -.")
    return value


def public_key(body, name):
    """body[name] as an uncompressed P-256 point (65 bytes); 400 otherwise."""
    raw = decoded(body, name, (65,))
    try:
        pin_proof.public_key(raw)
    except ValueError:
        raise ApiError(400, "invalid_request", f"'{name}' is not an uncompressed P-256 point.")
    return raw


def enrolment(body):
    """The fields of a pin/enrol body: profile id, salt, iterations, the new public key and, for a
    re-enrolment, the nonce and the current key's proof (both None for a first enrolment)."""
    fields = {
        "profile_id": profile_id(body),
        "salt": decoded(body, "salt", range(16, 65)),
        "public_key": public_key(body, "public_key"),
        "iterations": field(body, "iterations", int),
    }
    if not MIN_ITERATIONS <= fields["iterations"] <= MAX_ITERATIONS:
        raise ApiError(400, "invalid_request", f"'iterations' must be {MIN_ITERATIONS}..{MAX_ITERATIONS}.")
    has_proof = "proof" in body or "nonce" in body
    fields["nonce"] = decoded(body, "nonce", range(16, 65)) if has_proof else None
    fields["proof"] = decoded(body, "proof", (32, 64)) if has_proof else None
    return fields


def proven(body):
    """The profile id, nonce and a well-formed P-256 signature (64 bytes, r and s in 1..n-1) of a
    body proven by the PIN key; 400 otherwise."""
    profile = profile_id(body)
    nonce = decoded(body, "nonce", range(16, 65))
    proof = decoded(body, "proof", (64,))
    if not pin_proof.signature_well_formed(proof):
        raise ApiError(400, "invalid_request", "'proof' is not a P-256 signature r || s with r and s in 1..n-1.")
    return profile, nonce, proof
