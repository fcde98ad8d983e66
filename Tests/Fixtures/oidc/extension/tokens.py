"""Minting and revoking DOT tokens outside DOT's own endpoints."""
import uuid
from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from oauth2_provider.models import (
    get_access_token_model,
    get_application_model,
    get_refresh_token_model,
    set_token_value,
)
from oauthlib.common import generate_token

from .models import ProfileTokenFamily

AccessToken = get_access_token_model()
RefreshToken = get_refresh_token_model()
Application = get_application_model()

SCOPE = "openid profile email"


def mint(user):
    """Issue an access token and a refresh token (a new family) to `user` for the test client.

    Returns the OAuth token response (RFC 6749 section 5.1) and the refresh-token family.
    """
    application = Application.objects.get(client_id=settings.TOKEN_APPLICATION_CLIENT_ID)
    access_value, refresh_value = generate_token(), generate_token()
    access = AccessToken(
        user=user,
        application=application,
        scope=SCOPE,
        expires=timezone.now() + timedelta(seconds=settings.ACCESS_TOKEN_SECONDS),
    )
    set_token_value(access, access_value)
    access.save()
    family = uuid.uuid4()
    refresh = RefreshToken(user=user, application=application, access_token=access, token_family=family)
    set_token_value(refresh, refresh_value)
    refresh.save()
    response = {
        "access_token": access_value,
        "token_type": "Bearer",
        "expires_in": settings.ACCESS_TOKEN_SECONDS,
        "refresh_token": refresh_value,
        "scope": SCOPE,
    }
    return response, family


def mint_access(user, scope):
    """Issue an access token alone (no refresh token) for `scope` (implicit authentication)."""
    application = Application.objects.get(client_id=settings.TOKEN_APPLICATION_CLIENT_ID)
    value = generate_token()
    access = AccessToken(user=user, application=application, scope=scope,
                         expires=timezone.now() + timedelta(seconds=settings.ACCESS_TOKEN_SECONDS))
    set_token_value(access, value)
    access.save()
    return {"access_token": value, "token_type": "Bearer", "expires_in": settings.ACCESS_TOKEN_SECONDS, "scope": scope}


def family_of(access_token):
    """The refresh-token family an access token belongs to, or None."""
    refresh = RefreshToken.objects.filter(access_token=access_token).first()
    return refresh.token_family if refresh else None


def remember_family(profile_id, family):
    if family:
        ProfileTokenFamily.objects.get_or_create(profile_id=profile_id, token_family=family)


def revoke_profile_tokens(profile_id, extra_access_token=None):
    """Revoke every token family recorded for the profile (and one more access token, if given)."""
    families = ProfileTokenFamily.objects.filter(profile_id=profile_id)
    for family in families.values_list("token_family", flat=True):
        RefreshToken.revoke_family(family)
    families.delete()
    if extra_access_token is not None:
        refresh = RefreshToken.objects.filter(access_token=extra_access_token).first()
        if refresh is not None:
            RefreshToken.revoke_family(refresh.token_family)
        else:
            AccessToken.objects.filter(pk=extra_access_token.pk).delete()
