"""Identity providers and the scripted custom registration (init / complete).

Custom identity providers answer according to the data the client sends:
- "status:NNNN" answers status NNNN and echoes the data back;
- "expire" answers 410 registration_expired;
- anything else (including null) answers status 2000; a two-step init then answers data
  "init-ok:<session>".
A 2xxx complete creates a user custom-<random> and mints tokens for it.
"""
import re
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.http import JsonResponse
from django.utils import timezone

from . import tokens
from .http import ApiError, api_view, field, json_body
from .models import CustomRegistrationSession

CUSTOM_STEPS = {"custom-one": 1, "custom-two": 2}
IDENTITY_PROVIDERS = [
    {"id": "oidc", "name": "OpenID Connect", "type": "browser"},
    {"id": "custom-one", "name": "Custom (one step)", "type": "custom", "steps": 1},
    {"id": "custom-two", "name": "Custom (two steps)", "type": "custom", "steps": 2},
]
STATUS_DATA = re.compile(r"status:(\d{1,9})")


@api_view("GET")
def identity_providers(request):
    return JsonResponse(IDENTITY_PROVIDERS, safe=False)


def _custom_steps(idp):
    if idp not in CUSTOM_STEPS:
        raise ApiError(404, "unknown_identity_provider", f"No custom identity provider '{idp}'.")
    return CUSTOM_STEPS[idp]


def _scripted_status(data):
    """The status the scripted provider answers for `data`; raises 410 for "expire"."""
    if data == "expire":
        raise ApiError(410, "registration_expired", "The registration session expired.")
    match = STATUS_DATA.fullmatch(data or "")
    return int(match.group(1)) if match else 2000


@api_view("POST")
def init(request, idp):
    """Open a registration session. Two-step providers use it; one-step providers allow it."""
    _custom_steps(idp)
    data = field(json_body(request), "data", str, optional=True)
    status = _scripted_status(data)
    session = secrets.token_urlsafe(24)
    CustomRegistrationSession.objects.create(
        session=session,
        identity_provider=idp,
        expires=timezone.now() + timedelta(seconds=settings.REGISTRATION_SESSION_SECONDS),
    )
    answer = data if STATUS_DATA.fullmatch(data or "") else f"init-ok:{session}"
    return JsonResponse({"session": session, "status": status, "data": answer})


@api_view("POST")
def complete(request, idp):
    """Finish a registration: a 2xxx status creates the user and returns its tokens."""
    steps = _custom_steps(idp)
    body = json_body(request)
    session_id = field(body, "session", str, optional=True)
    data = field(body, "data", str, optional=True)
    with transaction.atomic():
        session = None
        if steps == 2:
            session = CustomRegistrationSession.objects.filter(
                session=session_id or "", identity_provider=idp, expires__gt=timezone.now()
            ).first()
            if session is None:
                raise ApiError(410, "registration_expired", "Unknown or expired registration session.")
        if data == "expire":
            if session is not None:
                session.delete()
            answer = None
        else:
            status = _scripted_status(data)
            answer = {"status": status, "data": data if data is not None else ""}
            if 2000 <= status <= 2999:
                user = get_user_model().objects.create_user(username=f"custom-{secrets.token_hex(8)}")
                answer["tokens"], _ = tokens.mint(user)
            if session is not None and not 4000 <= status <= 4999:
                session.delete()
    if answer is None:
        raise ApiError(410, "registration_expired", "The registration session expired.")
    return JsonResponse(answer)
