"""Create or update the fixture's users and OAuth clients (idempotent)."""
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from oauth2_provider.models import get_application_model

USERS = [
    ("alice", "alice-password-1", "alice@example.test", "Alice", "Tester"),
    ("bob", "bob-password-1", "bob@example.test", "Bob", "Tester"),
]
REDIRECT_URIS = "identityflow://callback http://127.0.0.1/callback"
CLIENTS = [
    ("identityflow-tests", "IdentityFlow tests", False, "authorization-code"),
    ("identityflow-autoconsent", "IdentityFlow tests (no consent screen)", True, "authorization-code"),
    # 7Pass-style native login: the (legacy) password grant, for a public client.
    ("identityflow-password", "IdentityFlow tests (password grant)", True, "password"),
]
# A confidential client (client_secret_basic or client_secret_post), registered as django-oauth-toolkit
# registers one: the secret is stored hashed.
CONFIDENTIAL_CLIENT = ("identityflow-confidential", "IdentityFlow tests (confidential client)", "identityflow-confidential-secret")


class Command(BaseCommand):
    help = (
        "Create the test users alice and bob, the public clients identityflow-tests, identityflow-autoconsent and identityflow-password, "
        "and the confidential client identityflow-confidential."
    )

    def handle(self, *args, **options):
        User = get_user_model()
        for username, password, email, first, last in USERS:
            user, _ = User.objects.get_or_create(username=username)
            user.email, user.first_name, user.last_name = email, first, last
            user.set_password(password)
            user.save()
        Application = get_application_model()
        for client_id, name, skip, grant in CLIENTS:
            app = Application.objects.filter(client_id=client_id).first() or Application(client_id=client_id)
            app.name = name
            app.client_type = Application.CLIENT_PUBLIC
            app.authorization_grant_type = grant
            app.client_secret = ""
            app.hash_client_secret = False
            app.redirect_uris = REDIRECT_URIS
            app.algorithm = Application.RS256_ALGORITHM
            app.skip_authorization = skip
            app.full_clean(exclude=["user", "client_secret"])
            app.save()
        client_id, name, secret = CONFIDENTIAL_CLIENT
        app = Application.objects.filter(client_id=client_id).first() or Application(client_id=client_id)
        app.name = name
        app.client_type = Application.CLIENT_CONFIDENTIAL
        app.authorization_grant_type = "authorization-code"
        app.hash_client_secret = True
        app.client_secret = secret
        app.redirect_uris = REDIRECT_URIS
        app.algorithm = Application.RS256_ALGORITHM
        app.skip_authorization = True
        app.full_clean(exclude=["user", "client_secret"])
        app.save()
        self.stdout.write("fixture users and clients ready")
