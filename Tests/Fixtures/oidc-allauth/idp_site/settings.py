"""Settings of the django-allauth identity provider fixture (127.0.0.1 only, never production).

Stock allauth.idp.oidc: its discovery document, login page and consent page are served as the
package writes them. The issuer is the site's root (http://127.0.0.1:<port>, no path), public
clients must use PKCE, refresh tokens rotate, and revocation is offered.

Environment:
- IDENTITYFLOW_FIXTURE_PORT: port the server listens on.
- IDENTITYFLOW_FIXTURE_STATE: state directory (default .state beside manage.py).
"""
import os
import secrets
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

FIXTURE_DIR = Path(__file__).resolve().parent.parent
STATE_DIR = Path(os.environ.get("IDENTITYFLOW_FIXTURE_STATE", FIXTURE_DIR / ".state"))
STATE_DIR.mkdir(parents=True, exist_ok=True)
PORT = int(os.environ.get("IDENTITYFLOW_FIXTURE_PORT", "8767"))


def _kept(name, make):
    """A value made once and kept in the state directory, so a restart keeps sessions and keys."""
    path = STATE_DIR / name
    if not path.exists():
        path.write_text(make())
        path.chmod(0o600)
    return path.read_text()


def _signing_key():
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


SECRET_KEY = _kept("secret_key", lambda: secrets.token_urlsafe(48))
IDP_OIDC_PRIVATE_KEY = _kept("signing_key.pem", _signing_key)
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
CSRF_TRUSTED_ORIGINS = [f"http://127.0.0.1:{PORT}"]

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "allauth",
    "allauth.account",
    "allauth.idp.oidc",
    "idp_setup",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]
AUTHENTICATION_BACKENDS = ["allauth.account.auth_backends.AuthenticationBackend"]
ROOT_URLCONF = "idp_site.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]
DATABASES = {
    "default": {"ENGINE": "django.db.backends.sqlite3", "NAME": STATE_DIR / "db.sqlite3", "OPTIONS": {"timeout": 20}}
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_TZ = True
TIME_ZONE = "UTC"
LOGIN_URL = "/accounts/login/"
ACCOUNT_LOGIN_METHODS = {"username"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "none"
