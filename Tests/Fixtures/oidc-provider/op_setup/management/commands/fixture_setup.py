"""Creates the fixture's user, signing key and client; safe to run again."""
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from oidc_provider.models import Client, ResponseType, RSAKey


class Command(BaseCommand):
    help = "Create alice, an RS256 key, the public client identityflow-tests (PKCE, consent) and the confidential client identityflow-confidential."

    def handle(self, *args, **options):
        if not User.objects.filter(username="alice").exists():
            User.objects.create_user("alice", email="alice@example.test", password="alice-password-1", first_name="Alice")
        if not RSAKey.objects.exists():
            key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                                    serialization.NoEncryption()).decode()
            RSAKey.objects.create(key=pem)
        code, _ = ResponseType.objects.get_or_create(value="code", defaults={"description": "code (Authorization Code Flow)"})
        client, _ = Client.objects.get_or_create(client_id="identityflow-tests", defaults={"name": "IdentityFlow tests"})
        client.client_type = "public"
        client.jwt_alg = "RS256"
        client.redirect_uris = ["identityflow://callback"]
        # RP-Initiated Logout: the end-session endpoint redirects (with the state) only to a registered URI.
        client.post_logout_redirect_uris = ["identityflow://callback"]
        client.require_consent = True
        client.reuse_consent = False
        client.save()
        client.response_types.set([code])
        # A confidential client, as django-oidc-provider registers one: client_type confidential and
        # a secret (client_secret_basic or client_secret_post at the token endpoint).
        confidential, _ = Client.objects.get_or_create(client_id="identityflow-confidential", defaults={"name": "IdentityFlow tests (confidential)"})
        confidential.client_type = "confidential"
        confidential.client_secret = "identityflow-confidential-secret"
        confidential.jwt_alg = "RS256"
        confidential.redirect_uris = ["identityflow://callback"]
        confidential.require_consent = False
        confidential.save()
        confidential.response_types.set([code])
        self.stdout.write("fixture users and clients ready")
