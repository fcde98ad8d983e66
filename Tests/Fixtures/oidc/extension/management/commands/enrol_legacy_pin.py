"""Enrols a PIN the way PIN proof v1 did, for the migration test (the client upgrades it)."""
import hashlib

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand

from extension.models import PinEnrolment
from extension.pin_proof import b64url_encode


class Command(BaseCommand):
    help = "enrol_legacy_pin PROFILE_ID PIN [--user alice] [--iterations 1000] [--salt-hex 00..0f]: a v1 enrolment."

    def add_arguments(self, parser):
        parser.add_argument("profile_id")
        parser.add_argument("pin")
        parser.add_argument("--user", default="alice")
        parser.add_argument("--iterations", type=int, default=1000)
        parser.add_argument("--salt-hex", default="000102030405060708090a0b0c0d0e0f")

    def handle(self, profile_id, pin, user, iterations, salt_hex, **options):
        salt = bytes.fromhex(salt_hex)
        verifier = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, iterations, 32)
        PinEnrolment.objects.update_or_create(
            profile_id=profile_id,
            defaults={"user": User.objects.get(username=user), "salt": b64url_encode(salt), "iterations": iterations,
                      "version": 1, "verifier": b64url_encode(verifier), "public_key": "", "biometric_key": "", "failure_count": 0})
        self.stdout.write(f"v1 enrolment of {profile_id} for {user}")
