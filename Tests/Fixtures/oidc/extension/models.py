"""Server-side state of the extension endpoints."""
from django.conf import settings
from django.db import models


class PinEnrolment(models.Model):
    """A profile's PIN public key (PIN proof v2), its biometric public key and its failure count.

    v2 stores public keys only (docs/pin-proof.md). A profile enrolled with PIN proof v1 keeps
    its password-equivalent `verifier` until the client upgrades it at its next login.
    """

    profile_id = models.CharField(max_length=128, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    salt = models.CharField(max_length=128)
    iterations = models.PositiveIntegerField()
    version = models.PositiveSmallIntegerField(default=1)
    verifier = models.CharField(max_length=64, blank=True, default="")
    public_key = models.CharField(max_length=100, blank=True, default="")
    biometric_key = models.CharField(max_length=100, blank=True, default="")
    failure_count = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)


class PinNonce(models.Model):
    """A single-use challenge nonce issued for one profile."""

    nonce = models.CharField(max_length=64, unique=True)
    profile_id = models.CharField(max_length=128)
    expires = models.DateTimeField()


class DeregisteredProfile(models.Model):
    """A profile removed because its last allowed PIN attempt failed: every later call answers 410."""

    profile_id = models.CharField(max_length=128, unique=True)
    deregistered = models.DateTimeField(auto_now_add=True)


class ProfileTokenFamily(models.Model):
    """A refresh-token family (DOT RefreshToken.token_family) issued to a profile's user for it.

    Revoking a profile revokes these families: the tokens that were used to enrol it and the ones
    its PIN logins minted.
    """

    profile_id = models.CharField(max_length=128, db_index=True)
    token_family = models.UUIDField()

    class Meta:
        unique_together = [("profile_id", "token_family")]


class CustomRegistrationSession(models.Model):
    """The session a two-step custom identity provider opens at init and closes at complete."""

    session = models.CharField(max_length=64, unique=True)
    identity_provider = models.CharField(max_length=64)
    expires = models.DateTimeField()


class MobileAuthEnrolment(models.Model):
    """A profile's mobile authentication public key (docs/mobile-auth.md) and its push token."""

    profile_id = models.CharField(max_length=128, unique=True)
    public_key = models.CharField(max_length=100)
    push_token = models.CharField(max_length=512, blank=True, default="")


class MobileAuthRequest(models.Model):
    """A request the back office sent a profile: open until answered (decision set) or expired."""

    request_id = models.CharField(max_length=64, unique=True)
    profile_id = models.CharField(max_length=128, db_index=True)
    message = models.TextField()
    kind = models.CharField(max_length=16)
    expires = models.DateTimeField()
    nonce = models.CharField(max_length=64)
    otp = models.CharField(max_length=512, blank=True, default="", db_index=True)
    decision = models.BooleanField(null=True, default=None)
    pushed = models.BooleanField(default=False)


class ImplicitKey(models.Model):
    """A profile's implicit authentication public key."""

    profile_id = models.CharField(max_length=128, unique=True)
    public_key = models.CharField(max_length=100)
