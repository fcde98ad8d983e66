"""Creates the fixture's user and client; safe to run again."""
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from allauth.idp.oidc.models import Client


class Command(BaseCommand):
    help = "Create alice, the public client identityflow-tests (PKCE, refresh, consent) and the confidential client identityflow-confidential."

    def handle(self, *args, **options):
        if not User.objects.filter(username="alice").exists():
            User.objects.create_user("alice", email="alice@example.test", password="alice-password-1", first_name="Alice")
        client, _ = Client.objects.get_or_create(id="identityflow-tests", defaults={"name": "IdentityFlow tests"})
        client.type = Client.Type.PUBLIC
        client.set_grant_types([Client.GrantType.AUTHORIZATION_CODE, Client.GrantType.REFRESH_TOKEN])
        client.set_response_types([Client.ResponseType.CODE])
        client.set_redirect_uris(["identityflow://callback"])
        client.set_scopes(["openid", "profile", "email"])
        client.skip_consent = False
        client.save()
        # A confidential client, as allauth registers one: type confidential, its secret stored hashed.
        confidential, _ = Client.objects.get_or_create(id="identityflow-confidential", defaults={"name": "IdentityFlow tests (confidential)"})
        confidential.type = Client.Type.CONFIDENTIAL
        confidential.set_secret("identityflow-confidential-secret")
        confidential.set_grant_types([Client.GrantType.AUTHORIZATION_CODE, Client.GrantType.REFRESH_TOKEN])
        confidential.set_response_types([Client.ResponseType.CODE])
        confidential.set_redirect_uris(["identityflow://callback"])
        confidential.set_scopes(["openid", "profile", "email"])
        confidential.skip_consent = True
        confidential.save()
        self.stdout.write("fixture users and clients ready")
