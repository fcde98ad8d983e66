"""Mobile and implicit authentication (docs/mobile-auth.md).

Every lookup and answer is signed by the profile's mobile authentication key over a single-use
nonce; a stepped-up acceptance adds a proof by the PIN key (or the biometric key) that counts
like a login proof when wrong. A request is answered once. The testing endpoint at the end plays
the back office: it is routed only when settings.IDENTITYFLOW_TESTING_ENDPOINTS is true.
"""
import re
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.http import HttpResponse, JsonResponse
from django.utils import timezone

from . import pin_proof, tokens
from .http import ApiError, api_view, bearer_token, error_response, field, json_body
from .models import ImplicitKey, MobileAuthEnrolment, MobileAuthRequest
from .pin import _consume_nonce, _decoded, _enrolment, _profile_id, _public_key, _require_owner, _wrong_proof, run_proven
from .pin_proof import b64url_decode, b64url_encode

KINDS = ("confirmation", "pin", "biometric")
REQUEST_ID = re.compile(r"[A-Za-z0-9._~-]{1,64}")


def forget_device_keys(profile_id):
    """A deregistered profile's device keys and requests go with it."""
    MobileAuthEnrolment.objects.filter(profile_id=profile_id).delete()
    MobileAuthRequest.objects.filter(profile_id=profile_id).delete()
    ImplicitKey.objects.filter(profile_id=profile_id).delete()


def _mobile_key(profile_id):
    enrolment = MobileAuthEnrolment.objects.filter(profile_id=profile_id).first()
    if enrolment is None:
        raise ApiError(404, "mobile_auth_not_enrolled", "The profile is not enrolled for mobile authentication.")
    return enrolment


def _check_signature(raw_key, proof, signed):
    if not (pin_proof.signature_well_formed(proof) and pin_proof.signature_valid(raw_key, proof, signed)):
        raise ApiError(401, "invalid_device_proof", "The device key's signature is wrong.")


def _request_json(request):
    return {
        "id": request.request_id,
        "profile_id": request.profile_id,
        "message": request.message,
        "type": request.kind,
        "expires_at": request.expires.timestamp(),
        "nonce": request.nonce,
    }


def _enrol_device_key(request, model, label):
    """Store the profile's public key in `model` (replacing an earlier one): the bearer token of
    its user and a proof by its PIN key over a fresh nonce and the key (a wrong one counted)."""
    token = bearer_token(request)
    body = json_body(request)
    key = _public_key(body, "public_key")
    _require_owner(_enrolment(_profile_id(body)), token)

    def store(enrolment):
        model.objects.update_or_create(profile_id=enrolment.profile_id, defaults={"public_key": b64url_encode(key)})

    return run_proven(body, label, key, store)


@api_view("POST")
def enrol(request):
    """Register the profile's mobile authentication public key."""
    return _enrol_device_key(request, MobileAuthEnrolment, pin_proof.MOBILE_AUTH_ENROL)


@api_view("POST")
def push(request):
    """Record the device's push token for an enrolled profile (bearer token of its user)."""
    token = bearer_token(request)
    body = json_body(request)
    profile_id = _profile_id(body)
    device_token = _decoded(body, "device_token", range(1, 257))
    with transaction.atomic():
        _require_owner(_enrolment(profile_id), token)
        enrolment = _mobile_key(profile_id)
        enrolment.push_token = b64url_encode(device_token)
        enrolment.save()
    return HttpResponse(status=204)


@api_view("POST")
def requests(request):
    """Open requests for a lookup (pending, id, otp) signed by the mobile authentication key."""
    body = json_body(request)
    profile_id = _profile_id(body)
    nonce = _decoded(body, "nonce", range(16, 65))
    proof = _decoded(body, "proof", (64,))
    lookup = field(body, "lookup", str)
    if lookup == "pending":
        subject = b"pending"
    elif lookup == "id":
        subject = b"id:" + field(body, "id", str).encode("utf-8")
    elif lookup == "otp":
        subject = b"otp:" + field(body, "otp", str).encode("utf-8")
    else:
        raise ApiError(400, "invalid_request", "'lookup' must be pending, id or otp.")
    _enrolment(profile_id)
    if not _consume_nonce(profile_id, nonce):
        raise ApiError(400, "invalid_nonce", "The nonce is unknown, used or expired.")
    _check_signature(b64url_decode(_mobile_key(profile_id).public_key), proof,
                     pin_proof.message(pin_proof.MOBILE_AUTH_LOOKUP, profile_id, nonce, subject))
    now = timezone.now()
    open_requests = MobileAuthRequest.objects.filter(profile_id=profile_id, decision__isnull=True)
    if lookup == "pending":
        found = open_requests.filter(expires__gt=now).order_by("expires")
        return JsonResponse({"requests": [_request_json(r) for r in found]})
    found = open_requests.filter(request_id=body["id"]) if lookup == "id" else open_requests.filter(otp=body["otp"])
    entry = found.first()
    if entry is None:
        raise ApiError(404, "unknown_request", "No open request of that id or code for this profile.")
    if entry.expires <= now:
        raise ApiError(410, "request_expired", "The request expired.")
    return JsonResponse({"requests": [_request_json(entry)]})


@api_view("POST")
def answer(request):
    """Take a signed decision; a stepped-up acceptance needs a proof by the PIN or biometric key."""
    body = json_body(request)
    profile_id = _profile_id(body)
    request_id = field(body, "request_id", str)
    accepted = body.get("accepted")
    if not isinstance(accepted, bool):
        raise ApiError(400, "invalid_request", "'accepted' must be true or false.")
    proof = _decoded(body, "proof", (64,))
    step_up = body.get("step_up")
    with transaction.atomic():
        enrolment = _enrolment(profile_id, for_update=True)
        entry = MobileAuthRequest.objects.select_for_update().filter(
            request_id=request_id, profile_id=profile_id, decision__isnull=True).first()
        if entry is None:
            raise ApiError(404, "unknown_request", "No open request of that id for this profile.")
        if entry.expires <= timezone.now():
            raise ApiError(410, "request_expired", "The request expired.")
        subject = request_id.encode("utf-8") + b"\x00" + (b"\x01" if accepted else b"\x00")
        _check_signature(b64url_decode(_mobile_key(profile_id).public_key), proof,
                         pin_proof.message(pin_proof.MOBILE_AUTH_ANSWER, profile_id, b64url_decode(entry.nonce), subject))
        if accepted and entry.kind != "confirmation":
            if not isinstance(step_up, dict):
                raise ApiError(400, "invalid_request", f"Accepting a {entry.kind} request needs 'step_up'.")
            authenticator = field(step_up, "authenticator", str)
            step_nonce = _decoded(step_up, "nonce", range(16, 65))
            step_proof = _decoded(step_up, "proof", (64,))
            if authenticator == "pin":
                key, label = enrolment.public_key, pin_proof.MOBILE_AUTH_PIN
            elif authenticator == "biometric" and entry.kind == "biometric" and enrolment.biometric_key:
                key, label = enrolment.biometric_key, pin_proof.MOBILE_AUTH_BIOMETRIC
            else:
                raise ApiError(400, "invalid_request", "The step-up authenticator does not fit the request.")
            if enrolment.version != 2 or not key:
                raise ApiError(400, "invalid_request", "The profile's PIN is not v2 yet.")
            if not _consume_nonce(profile_id, step_nonce):
                raise ApiError(400, "invalid_nonce", "The nonce is unknown, used or expired.")
            signed = pin_proof.message(label, profile_id, step_nonce, request_id.encode("utf-8"))
            if not (pin_proof.signature_well_formed(step_proof) and pin_proof.signature_valid(b64url_decode(key), step_proof, signed)):
                # Returned, not raised: the transaction keeps the count.
                wrong = _wrong_proof(enrolment)
                if wrong.status == 410:
                    forget_device_keys(profile_id)
                return error_response(wrong)
            enrolment.failure_count = 0
            enrolment.save()
        entry.decision = accepted
        entry.save()
    return JsonResponse({"status": "handled"})


@api_view("POST")
def implicit_enrol(request):
    """Register the profile's implicit authentication public key."""
    return _enrol_device_key(request, ImplicitKey, pin_proof.IMPLICIT_ENROL)


@api_view("POST")
def implicit_token(request):
    """An access token (no refresh token) for implicit scopes, on the implicit key's signature."""
    body = json_body(request)
    profile_id = _profile_id(body)
    scopes = body.get("scopes")
    if not isinstance(scopes, list) or not scopes or not all(isinstance(s, str) and s for s in scopes):
        raise ApiError(400, "invalid_request", "'scopes' must be a non-empty list of strings.")
    nonce = _decoded(body, "nonce", range(16, 65))
    proof = _decoded(body, "proof", (64,))
    enrolment = _enrolment(profile_id)
    if not _consume_nonce(profile_id, nonce):
        raise ApiError(400, "invalid_nonce", "The nonce is unknown, used or expired.")
    key = ImplicitKey.objects.filter(profile_id=profile_id).first()
    if key is None:
        raise ApiError(404, "implicit_not_enrolled", "The profile has no implicit authentication key.")
    subject = " ".join(sorted(scopes)).encode("utf-8")
    _check_signature(b64url_decode(key.public_key), proof, pin_proof.message(pin_proof.IMPLICIT_TOKEN, profile_id, nonce, subject))
    if not set(scopes) <= set(settings.IMPLICIT_SCOPES):
        raise ApiError(400, "invalid_scope", f"Implicit authentication covers only {sorted(settings.IMPLICIT_SCOPES)}.")
    return JsonResponse(tokens.mint_access(enrolment.user, " ".join(scopes)))


@api_view("POST")
def testing_send(request):
    """Testing only: the back office sends a request (pushed when the profile has a push token),
    or makes a one-time code for it. Body: profile_id, message, type, expires_in, otp (bool)."""
    body = json_body(request)
    profile_id = _profile_id(body)
    kind = field(body, "type", str)
    if kind not in KINDS:
        raise ApiError(400, "invalid_request", f"'type' must be one of {KINDS}.")
    expires_in = field(body, "expires_in", int)
    enrolment = _mobile_key(profile_id)
    otp = ""
    if body.get("otp") is True:
        otp = "IFOTP1." + b64url_encode(profile_id.encode("utf-8")) + "." + b64url_encode(secrets.token_bytes(32))
    entry = MobileAuthRequest.objects.create(
        request_id="mar-" + secrets.token_urlsafe(12), profile_id=profile_id, message=field(body, "message", str), kind=kind,
        expires=timezone.now() + timedelta(seconds=expires_in), nonce=b64url_encode(secrets.token_bytes(32)), otp=otp,
        pushed=bool(enrolment.push_token) and not otp)
    return JsonResponse({"id": entry.request_id, "otp": otp or None, "pushed": entry.pushed,
                         "decision": None})


@api_view("GET")
def testing_request(request, request_id):
    """Testing only: a request's decision (true, false, or null while open)."""
    entry = MobileAuthRequest.objects.filter(request_id=request_id).first()
    if entry is None:
        raise ApiError(404, "unknown_request", "No such request.")
    return JsonResponse({"id": entry.request_id, "decision": entry.decision, "pushed": entry.pushed})
