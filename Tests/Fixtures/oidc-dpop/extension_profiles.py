"""PIN proof v2 (docs/pin-proof.md) for the extension API of this fixture (extension_api.py):
enrolment, challenge, PIN and biometric logins, the credential changes proven by the PIN key, and
failure counting, as the django-oauth-toolkit fixture does them (../oidc/extension/pin.py), with
its proof checks and request fields (../oidc/extension/pin_proof.py and pin_fields.py, imported).
State in memory, as idpyoidc's is.

Only a wrong proof counts (at login, PIN change, biometric enrolment and revocation, and
deregistration); malformed requests and unknown, used or expired nonces never do. The wrong proof
that reaches max_failure_count deregisters the profile and revokes the tokens of its sign-ins;
every later call about it answers 410.
"""

import os
import secrets
import sys
import time
from dataclasses import dataclass

# The django-oauth-toolkit fixture's Django-free modules: the proof checks and the request fields.
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "oidc"))
from extension import pin_fields, pin_proof  # noqa: E402  (../oidc/extension)
from extension.pin_fields import ApiError  # noqa: E402

b64url_encode = pin_proof.b64url_encode
MAX_FAILURES = int(os.environ.get("IDENTITYFLOW_PIN_MAX_FAILURES", "3"))
NONCE_SECONDS = 120


@dataclass
class Enrolment:
    profile_id: str
    user_id: str
    salt: bytes
    iterations: int
    public_key: bytes
    biometric_key: bytes = b""
    failure_count: int = 0


class Profiles:
    """The profiles, their nonces and the sign-ins (idpyoidc grants) bound to each."""

    def __init__(self, tokens):
        self.tokens = tokens  # extension_tokens.ProviderTokens
        self.enrolments = {}  # profile id -> Enrolment
        self.nonces = {}  # b64url nonce -> (profile id, expiry)
        self.deregistered = set()  # profile ids removed by too many wrong proofs (410 for ever)
        self.grants = {}  # profile id -> the grant ids of its sign-ins
        self.bound = {}  # grant id -> profile id

    # MARK: - State

    def enrolment(self, profile_id: str) -> Enrolment:
        if profile_id in self.deregistered:
            raise ApiError(410, "user_deregistered", "The profile was deregistered after too many wrong PINs.")
        enrolment = self.enrolments.get(profile_id)
        if enrolment is None:
            raise ApiError(404, "unknown_profile", f"No profile '{profile_id}'.")
        return enrolment

    def consume_nonce(self, profile_id: str, nonce: bytes) -> bool:
        """Whether the nonce was issued for the profile and is still valid; a nonce of the profile
        is spent either way (another profile's is left alone, as the DOT fixture does)."""
        key = b64url_encode(nonce)
        issued = self.nonces.get(key)
        if issued is None or issued[0] != profile_id:
            return False
        del self.nonces[key]
        return issued[1] > time.time()

    def bind(self, profile_id: str, grant_id: str):
        self.grants.setdefault(profile_id, set()).add(grant_id)
        self.bound[grant_id] = profile_id

    def forget(self, profile_id: str):
        """Removes the profile, its nonces and the tokens of its sign-ins."""
        self.enrolments.pop(profile_id, None)
        self.nonces = {n: v for n, v in self.nonces.items() if v[0] != profile_id}
        grant_ids = self.grants.pop(profile_id, set())
        for grant_id in grant_ids:
            self.bound.pop(grant_id, None)
        self.tokens.revoke(grant_ids)

    def wrong_proof(self, enrolment: Enrolment) -> ApiError:
        """Counts a wrong proof: 401 invalid_pin with the counters, or at the limit 410 (deregistered)."""
        if enrolment.failure_count + 1 < MAX_FAILURES:
            enrolment.failure_count += 1
            return ApiError(401, "invalid_pin", "The PIN is wrong.", failure_count=enrolment.failure_count,
                            max_failure_count=MAX_FAILURES, remaining_failure_count=MAX_FAILURES - enrolment.failure_count)
        self.forget(enrolment.profile_id)
        self.deregistered.add(enrolment.profile_id)
        return ApiError(410, "user_deregistered", "Too many wrong PINs: the profile was deregistered.")

    # MARK: - Endpoints (each returns the answer's JSON body, or None for 204; raises ApiError)

    def enrol(self, body: dict, token: dict) -> dict:
        """pin/enrol: a first enrolment binds the profile to the token's user and sign-in; a
        re-enrolment (PIN change) needs a proof by the current PIN key."""
        fields = pin_fields.enrolment(body)
        profile_id, salt, new_key, iterations = fields["profile_id"], fields["salt"], fields["public_key"], fields["iterations"]
        nonce, proof = fields["nonce"], fields["proof"]
        if profile_id in self.deregistered:
            raise ApiError(410, "user_deregistered", "The profile was deregistered; register again.")
        enrolment = self.enrolments.get(profile_id)
        if enrolment is None:
            if token["grant_id"] in self.bound:
                raise ApiError(403, "token_not_allowed", "A first PIN enrolment needs the access token of the sign-in that just happened.")
            enrolment = Enrolment(profile_id, token["user_id"], salt, iterations, new_key)
            self.enrolments[profile_id] = enrolment
        else:
            if enrolment.user_id != token["user_id"]:
                raise ApiError(403, "profile_bound_to_other_user", "The profile belongs to another user.")
            if nonce is None:
                raise ApiError(403, "proof_required", "The profile has a PIN: changing it needs a proof by the current PIN key.")
            if not self.consume_nonce(profile_id, nonce):
                raise ApiError(400, "invalid_nonce", "The nonce is unknown, used or expired.")
            signed = pin_proof.message(pin_proof.CHANGE, profile_id, nonce, new_key)
            if not (pin_proof.signature_well_formed(proof) and pin_proof.signature_valid(enrolment.public_key, proof, signed)):
                raise self.wrong_proof(enrolment)
            enrolment.salt, enrolment.iterations, enrolment.public_key = salt, iterations, new_key
            enrolment.failure_count = 0
        self.bind(profile_id, token["grant_id"])
        return {"max_failure_count": MAX_FAILURES}

    def challenge(self, body: dict) -> dict:
        profile_id = pin_fields.profile_id(body)
        enrolment = self.enrolment(profile_id)
        now = time.time()
        self.nonces = {n: v for n, v in self.nonces.items() if v[1] > now}
        nonce = b64url_encode(secrets.token_bytes(32))
        self.nonces[nonce] = (profile_id, now + NONCE_SECONDS)
        return {
            "nonce": nonce,
            "salt": b64url_encode(enrolment.salt),
            "iterations": enrolment.iterations,
            "max_failure_count": MAX_FAILURES,
            "failure_count": enrolment.failure_count,
            "version": 2,
        }

    def verify(self, body: dict, jkt: str, biometric: bool) -> dict:
        """pin/verify, biometric/verify: idpyoidc tokens bound to `jkt` on success, a counted
        failure otherwise (one counter for the PIN key and the biometric key)."""
        profile_id = pin_fields.profile_id(body)
        nonce = pin_fields.decoded(body, "nonce", range(16, 65))
        proof = pin_fields.decoded(body, "proof", (32, 64))
        enrolment = self.enrolment(profile_id)
        if not self.consume_nonce(profile_id, nonce):
            raise ApiError(400, "invalid_nonce", "The nonce is unknown, used or expired.")
        if biometric and not enrolment.biometric_key:
            raise ApiError(404, "authenticator_not_registered", "The profile has no biometric key.")
        if not pin_proof.signature_well_formed(proof):
            raise ApiError(400, "invalid_request", "'proof' is not a P-256 signature r || s with r and s in 1..n-1.")
        key = enrolment.biometric_key if biometric else enrolment.public_key
        label = pin_proof.BIOMETRIC_LOGIN if biometric else pin_proof.LOGIN
        if not pin_proof.signature_valid(key, proof, pin_proof.message(label, profile_id, nonce)):
            raise self.wrong_proof(enrolment)
        enrolment.failure_count = 0
        answer, grant_id = self.tokens.mint(enrolment.user_id, jkt, "biometric" if biometric else "pin")
        self.bind(profile_id, grant_id)
        return answer

    def proven(self, body: dict, label: bytes, subject: bytes) -> Enrolment:
        """The enrolment of a credential change whose proof by the PIN key over a fresh nonce and
        `subject` is right; a wrong one is counted. The nonce is spent whatever happens."""
        profile_id, nonce, proof = pin_fields.proven(body)
        enrolment = self.enrolment(profile_id)
        if not self.consume_nonce(profile_id, nonce):
            raise ApiError(400, "invalid_nonce", "The nonce is unknown, used or expired.")
        if not pin_proof.signature_valid(enrolment.public_key, proof, pin_proof.message(label, profile_id, nonce, subject)):
            raise self.wrong_proof(enrolment)
        return enrolment

    def biometric_enrol(self, body: dict, token: dict):
        key = pin_fields.public_key(body, "public_key")
        if self.enrolment(pin_fields.profile_id(body)).user_id != token["user_id"]:
            raise ApiError(403, "profile_bound_to_other_user", "The profile belongs to another user.")
        self.proven(body, pin_proof.BIOMETRIC_ENROL, key).biometric_key = key

    def biometric_revoke(self, body: dict):
        enrolment = self.proven(body, pin_proof.BIOMETRIC_REVOKE, b"")
        if not enrolment.biometric_key:
            raise ApiError(404, "authenticator_not_registered", "The profile has no biometric key.")
        enrolment.biometric_key = b""

    def profile(self, profile_id: str) -> dict:
        self.enrolment(profile_id)
        return {"profile_id": profile_id}

    def deregister(self, body: dict):
        """Deregistration on the PIN key's proof: later calls answer 404 unknown_profile."""
        self.forget(self.proven(body, pin_proof.DEREGISTER, b"").profile_id)
