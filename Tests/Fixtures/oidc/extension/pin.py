"""PIN proof v2: enrolment, challenge, PIN and biometric proofs with server-side failure counting.

See docs/pin-proof.md. Only a wrong proof counts as a failure (at login, PIN change and biometric
enrolment); malformed requests and unknown, used or expired nonces never do. Profiles enrolled
with PIN proof v1 keep working until the client upgrades them.
"""
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.http import HttpResponse, JsonResponse
from django.utils import timezone

from . import tokens
from .http import ApiError, api_view, bearer_token, error_response, json_body
from .models import DeregisteredProfile, PinEnrolment, PinNonce, ProfileTokenFamily
from . import pin_fields, pin_proof
from .pin_proof import b64url_decode, b64url_encode

# The request fields, checked as the idpyoidc fixture's extension API checks them (pin_fields.py).
_decoded, _profile_id, _public_key = pin_fields.decoded, pin_fields.profile_id, pin_fields.public_key


def _enrolment(profile_id, for_update=False):
    """The profile's enrolment; 410 user_deregistered or 404 unknown_profile otherwise."""
    if DeregisteredProfile.objects.filter(profile_id=profile_id).exists():
        raise ApiError(410, "user_deregistered", "The profile was deregistered after too many wrong PINs.")
    query = PinEnrolment.objects.select_related("user")
    if for_update:
        query = query.select_for_update()
    enrolment = query.filter(profile_id=profile_id).first()
    if enrolment is None:
        raise ApiError(404, "unknown_profile", f"No profile '{profile_id}'.")
    return enrolment


def _require_owner(enrolment, token):
    if enrolment.user_id != token.user_id:
        raise ApiError(403, "profile_bound_to_other_user", "The profile belongs to another user.")


def _forget_device_keys(profile_id):
    from .mobile_auth import forget_device_keys  # mobile_auth imports this module

    forget_device_keys(profile_id)


def _consume_nonce(profile_id, nonce):
    """Whether the nonce was issued for the profile and still valid; it is deleted either way."""
    return PinNonce.objects.filter(nonce=b64url_encode(nonce), profile_id=profile_id, expires__gt=timezone.now()).delete()[0] > 0


def _wrong_proof(enrolment):
    """Counts a wrong proof: 401 invalid_pin with the counters, or at the limit the profile is
    deregistered (410). Returned, not raised, so that the transaction keeps the count."""
    maximum = settings.PIN_MAX_FAILURES
    if enrolment.failure_count + 1 < maximum:
        enrolment.failure_count += 1
        enrolment.save()
        return ApiError(401, "invalid_pin", "The PIN is wrong.", failure_count=enrolment.failure_count,
                        max_failure_count=maximum, remaining_failure_count=maximum - enrolment.failure_count)
    profile_id = enrolment.profile_id
    enrolment.delete()
    _forget_device_keys(profile_id)
    DeregisteredProfile.objects.create(profile_id=profile_id)
    PinNonce.objects.filter(profile_id=profile_id).delete()
    tokens.revoke_profile_tokens(profile_id)
    return ApiError(410, "user_deregistered", "Too many wrong PINs: the profile was deregistered.")


@api_view("POST")
def enrol(request):
    """Bind a profile to the bearer token's user with a PIN public key; a profile that has a PIN
    is re-enrolled (PIN change, v1 upgrade) only with a proof by its current key."""
    token = bearer_token(request)
    fields = pin_fields.enrolment(json_body(request))
    profile_id, salt, new_key, iterations = fields["profile_id"], fields["salt"], fields["public_key"], fields["iterations"]
    nonce, proof = fields["nonce"], fields["proof"]
    has_proof = nonce is not None
    with transaction.atomic():
        if DeregisteredProfile.objects.filter(profile_id=profile_id).exists():
            raise ApiError(410, "user_deregistered", "The profile was deregistered; register again.")
        enrolment = PinEnrolment.objects.select_for_update().filter(profile_id=profile_id).first()
        if enrolment is None:
            # A first enrolment binds the sign-in that just happened: a token whose sign-in (its
            # refresh-token family) is bound to a profile already cannot enrol another one.
            family = tokens.family_of(token)
            if family is None or ProfileTokenFamily.objects.filter(token_family=family).exists():
                raise ApiError(403, "token_not_allowed",
                               "A first PIN enrolment needs the access token of the sign-in that just happened.")
            enrolment = PinEnrolment(profile_id=profile_id, user=token.user)
        else:
            _require_owner(enrolment, token)
            if not has_proof:
                raise ApiError(403, "proof_required", "The profile has a PIN: changing it needs a proof by the current PIN key.")
            if not _consume_nonce(profile_id, nonce):
                raise ApiError(400, "invalid_nonce", "The nonce is unknown, used or expired.")
            if enrolment.version == 2:
                valid = pin_proof.signature_well_formed(proof) and pin_proof.signature_valid(
                    b64url_decode(enrolment.public_key), proof, pin_proof.message(pin_proof.CHANGE, profile_id, nonce, new_key))
            else:
                valid = len(proof) == 32 and pin_proof.upgrade_matches(
                    b64url_decode(enrolment.verifier), profile_id, nonce, new_key, proof)
            if not valid:
                # Returned, not raised: the transaction commits the count.
                return error_response(_wrong_proof(enrolment))
        enrolment.salt = b64url_encode(salt)
        enrolment.iterations = iterations
        enrolment.version = 2
        enrolment.public_key = b64url_encode(new_key)
        enrolment.verifier = ""
        enrolment.failure_count = 0
        enrolment.save()
        tokens.remember_family(profile_id, tokens.family_of(token))
    return JsonResponse({"max_failure_count": settings.PIN_MAX_FAILURES})


@api_view("POST")
def challenge(request):
    """Issue a single-use nonce and the parameters needed to derive the PIN key."""
    profile_id = _profile_id(json_body(request))
    enrolment = _enrolment(profile_id)
    now = timezone.now()
    PinNonce.objects.filter(expires__lte=now).delete()
    nonce = b64url_encode(secrets.token_bytes(32))
    PinNonce.objects.create(
        nonce=nonce, profile_id=profile_id, expires=now + timedelta(seconds=settings.PIN_NONCE_SECONDS)
    )
    return JsonResponse(
        {
            "nonce": nonce,
            "salt": enrolment.salt,
            "iterations": enrolment.iterations,
            "max_failure_count": settings.PIN_MAX_FAILURES,
            "failure_count": enrolment.failure_count,
            "version": enrolment.version,
        }
    )


def _verify(request, biometric):
    """A login proof: tokens on success, a counted failure otherwise (the same counter for the
    PIN key and the biometric key)."""
    body = json_body(request)
    profile_id = _profile_id(body)
    nonce = _decoded(body, "nonce", range(16, 65))
    proof = _decoded(body, "proof", (32, 64))
    # Decide inside the transaction, answer after it: raising inside would roll back the count.
    with transaction.atomic():
        enrolment = _enrolment(profile_id, for_update=True)
        if not _consume_nonce(profile_id, nonce):
            outcome = ApiError(400, "invalid_nonce", "The nonce is unknown, used or expired.")
        elif biometric and not enrolment.biometric_key:
            outcome = ApiError(404, "authenticator_not_registered", "The profile has no biometric key.")
        elif enrolment.version == 1 and not biometric:
            if len(proof) != 32:
                outcome = ApiError(400, "invalid_request", "A v1 proof is 32 bytes.")
            elif pin_proof.v1_matches(b64url_decode(enrolment.verifier), profile_id, nonce, proof):
                outcome = None
            else:
                outcome = _wrong_proof(enrolment)
        elif not pin_proof.signature_well_formed(proof):
            outcome = ApiError(400, "invalid_request", "'proof' is not a P-256 signature r || s with r and s in 1..n-1.")
        else:
            key = enrolment.biometric_key if biometric else enrolment.public_key
            label = pin_proof.BIOMETRIC_LOGIN if biometric else pin_proof.LOGIN
            valid = bool(key) and pin_proof.signature_valid(b64url_decode(key), proof, pin_proof.message(label, profile_id, nonce))
            outcome = None if valid else _wrong_proof(enrolment)
        if outcome is None:
            enrolment.failure_count = 0
            enrolment.save()
            outcome, family = tokens.mint(enrolment.user)
            tokens.remember_family(profile_id, family)
    if isinstance(outcome, ApiError):
        raise outcome
    return JsonResponse(outcome)


@api_view("POST")
def verify(request):
    """Log in with a PIN proof."""
    return _verify(request, biometric=False)


@api_view("POST")
def biometric_verify(request):
    """Log in with a proof by the biometric key."""
    return _verify(request, biometric=True)


@api_view("POST")
def biometric_enrol(request):
    """Register the profile's biometric public key under a proof by its PIN key (counted when wrong)."""
    token = bearer_token(request)
    body = json_body(request)
    key = _public_key(body, "public_key")
    _require_owner(_enrolment(_profile_id(body)), token)

    def store(enrolment):
        enrolment.biometric_key = b64url_encode(key)
        enrolment.save()

    return run_proven(body, pin_proof.BIOMETRIC_ENROL, key, store)


def _proven(profile_id, nonce, proof, label, subject, change):
    """Inside a transaction: checks the proof by the profile's PIN key over the nonce and
    `subject` and applies `change(enrolment)`, or counts a wrong proof. Returns None or the
    ApiError to answer after the transaction commits. The nonce is spent whatever happens."""
    enrolment = _enrolment(profile_id, for_update=True)
    if enrolment.version != 2:
        return ApiError(400, "invalid_request", "The profile's PIN is not v2 yet.")
    if not _consume_nonce(profile_id, nonce):
        return ApiError(400, "invalid_nonce", "The nonce is unknown, used or expired.")
    if not pin_proof.signature_valid(b64url_decode(enrolment.public_key), proof, pin_proof.message(label, profile_id, nonce, subject)):
        return _wrong_proof(enrolment)
    return change(enrolment)


def run_proven(body, label, subject, change):
    """Checks a PIN-key proof over the body's nonce and `subject` and applies `change(enrolment)`
    in one transaction; raises the refusal after it commits (so that a wrong proof stays counted)."""
    profile_id, nonce, proof = pin_fields.proven(body)
    with transaction.atomic():
        outcome = _proven(profile_id, nonce, proof, label, subject, change)
    if isinstance(outcome, ApiError):
        raise outcome
    return HttpResponse(status=204)


@api_view("POST")
def biometric_revoke(request):
    """Revoke the profile's biometric key on its PIN key's proof; the PIN stays."""

    def revoke(enrolment):
        if not enrolment.biometric_key:
            return ApiError(404, "authenticator_not_registered", "The profile has no biometric key.")
        enrolment.biometric_key = ""
        enrolment.save()

    return run_proven(json_body(request), pin_proof.BIOMETRIC_REVOKE, b"", revoke)


@api_view("GET")
def profile(request, profile_id):
    """Does the profile exist?"""
    _enrolment(profile_id)
    return JsonResponse({"profile_id": profile_id})


@api_view("POST")
def deregister(request):
    """Deregister a profile on its PIN key's proof: its enrolment, device keys, nonces and tokens."""

    def forget(enrolment):
        profile_id = enrolment.profile_id
        enrolment.delete()
        _forget_device_keys(profile_id)
        PinNonce.objects.filter(profile_id=profile_id).delete()
        tokens.revoke_profile_tokens(profile_id)

    return run_proven(json_body(request), pin_proof.DEREGISTER, b"", forget)
