"""PIN enrolment, challenge and proof verification with server-side failure counting.

See docs/pin-proof.md. Only a wrong proof counts as a failure; malformed requests and unknown,
used or expired nonces never do.
"""
import re
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.http import HttpResponse, JsonResponse
from django.utils import timezone

from . import tokens
from .http import ApiError, api_view, bearer_token, field, json_body
from .models import DeregisteredProfile, PinEnrolment, PinNonce
from .pin_proof import b64url_decode, b64url_encode, proof_matches

MIN_ITERATIONS, MAX_ITERATIONS = 1000, 10_000_000
PROFILE_ID = re.compile(r"[A-Za-z0-9._~-]{1,128}")


def _decoded(body, name, sizes):
    value = field(body, name, str)
    try:
        raw = b64url_decode(value)
    except ValueError:
        raise ApiError(400, "invalid_request", f"'{name}' is not unpadded base64url.")
    if len(raw) not in sizes:
        raise ApiError(400, "invalid_request", f"'{name}' has the wrong length.")
    return raw


def _profile_id(body):
    profile_id = field(body, "profile_id", str)
    if not PROFILE_ID.fullmatch(profile_id):
        raise ApiError(400, "invalid_request", "'profile_id' must be 1 to 128 of A-Z a-z 0-9 . _ ~ -.")
    return profile_id


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


@api_view("POST")
def enrol(request):
    """Bind a profile to the bearer token's user with a PIN verifier; re-enrolment changes the PIN."""
    token = bearer_token(request)
    body = json_body(request)
    profile_id = _profile_id(body)
    salt = _decoded(body, "salt", range(16, 65))
    verifier = _decoded(body, "verifier", (32,))
    iterations = field(body, "iterations", int)
    if not MIN_ITERATIONS <= iterations <= MAX_ITERATIONS:
        raise ApiError(400, "invalid_request", f"'iterations' must be {MIN_ITERATIONS}..{MAX_ITERATIONS}.")
    with transaction.atomic():
        if DeregisteredProfile.objects.filter(profile_id=profile_id).exists():
            raise ApiError(410, "user_deregistered", "The profile was deregistered; register again.")
        enrolment = PinEnrolment.objects.select_for_update().filter(profile_id=profile_id).first()
        if enrolment is None:
            enrolment = PinEnrolment(profile_id=profile_id, user=token.user)
        _require_owner(enrolment, token)
        enrolment.salt = b64url_encode(salt)
        enrolment.iterations = iterations
        enrolment.verifier = b64url_encode(verifier)
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
        }
    )


@api_view("POST")
def verify(request):
    """Check a PIN proof: tokens on success, a counted failure otherwise."""
    body = json_body(request)
    profile_id = _profile_id(body)
    nonce = _decoded(body, "nonce", (32,))
    proof = _decoded(body, "proof", (32,))
    maximum = settings.PIN_MAX_FAILURES
    # Decide inside the transaction, answer after it: raising inside would roll back the count.
    with transaction.atomic():
        enrolment = _enrolment(profile_id, for_update=True)
        used = PinNonce.objects.filter(
            nonce=b64url_encode(nonce), profile_id=profile_id, expires__gt=timezone.now()
        ).delete()[0]
        if not used:
            outcome = ApiError(400, "invalid_nonce", "The nonce is unknown, used or expired.")
        elif proof_matches(b64url_decode(enrolment.verifier), profile_id, nonce, proof):
            enrolment.failure_count = 0
            enrolment.save()
            outcome, family = tokens.mint(enrolment.user)
            tokens.remember_family(profile_id, family)
        elif enrolment.failure_count + 1 < maximum:
            enrolment.failure_count += 1
            enrolment.save()
            outcome = ApiError(
                401,
                "invalid_pin",
                "The PIN is wrong.",
                failure_count=enrolment.failure_count,
                max_failure_count=maximum,
                remaining_failure_count=maximum - enrolment.failure_count,
            )
        else:
            enrolment.delete()
            DeregisteredProfile.objects.create(profile_id=profile_id)
            PinNonce.objects.filter(profile_id=profile_id).delete()
            tokens.revoke_profile_tokens(profile_id)
            outcome = ApiError(410, "user_deregistered", "Too many wrong PINs: the profile was deregistered.")
    if isinstance(outcome, ApiError):
        raise outcome
    return JsonResponse(outcome)


@api_view("GET", "DELETE")
def profile(request, profile_id):
    """GET: does the profile exist? DELETE: deregister it (bearer token of its user)."""
    if request.method == "GET":
        _enrolment(profile_id)
        return JsonResponse({"profile_id": profile_id})
    token = bearer_token(request)
    with transaction.atomic():
        enrolment = _enrolment(profile_id, for_update=True)
        _require_owner(enrolment, token)
        enrolment.delete()
        PinNonce.objects.filter(profile_id=profile_id).delete()
        tokens.revoke_profile_tokens(profile_id, extra_access_token=token)
    return HttpResponse(status=204)
