"""Writes a profile's row of the PIN table (salt, iterations, public key) to a JSON file, as a
leaked copy of the server's tables shows it: the attack tests pair it with a copy of the device's
storage to search the PIN offline (docs/pin-proof.md, "Threat model")."""
import json

from django.core.management.base import BaseCommand

from extension.models import PinEnrolment


class Command(BaseCommand):
    help = "leak_pin_record PROFILE_ID OUTPUT_JSON: the profile's salt, iterations and public key, base64url."

    def add_arguments(self, parser):
        parser.add_argument("profile_id")
        parser.add_argument("output")

    def handle(self, profile_id, output, **options):
        enrolment = PinEnrolment.objects.get(profile_id=profile_id)
        with open(output, "w", encoding="utf-8") as file:
            json.dump({"salt": enrolment.salt, "iterations": enrolment.iterations, "public_key": enrolment.public_key}, file)
