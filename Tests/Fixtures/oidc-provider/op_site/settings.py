"""Settings of the django-oidc-provider fixture (127.0.0.1 only, never production).

Stock django-oidc-provider: its discovery document is served as the package writes it (no
revocation endpoint, no code_challenge_methods_supported). Only the consent template is
IdentityFlow's, so that the test's headless browser finds the form by its id.

Environment:
- IDENTITYFLOW_FIXTURE_PORT: port the server listens on; the issuer is http://127.0.0.1:<port>/openid.
- IDENTITYFLOW_FIXTURE_STATE: state directory (default .state beside manage.py).
"""
import os
import secrets
from pathlib import Path

FIXTURE_DIR = Path(__file__).resolve().parent.parent
STATE_DIR = Path(os.environ.get("IDENTITYFLOW_FIXTURE_STATE", FIXTURE_DIR / ".state"))
STATE_DIR.mkdir(parents=True, exist_ok=True)
PORT = int(os.environ.get("IDENTITYFLOW_FIXTURE_PORT", "8766"))


def _secret_key():
    path = STATE_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(48))
    return path.read_text()


SECRET_KEY = _secret_key()
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
CSRF_TRUSTED_ORIGINS = [f"http://127.0.0.1:{PORT}"]
SITE_URL = f"http://127.0.0.1:{PORT}"

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "oidc_provider",
    "op_setup",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
ROOT_URLCONF = "op_site.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # Its own consent page; the sign-in page is the other fixture's.
        "DIRS": [FIXTURE_DIR / "templates", FIXTURE_DIR.parent / "oidc" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]
DATABASES = {
    "default": {"ENGINE": "django.db.backends.sqlite3", "NAME": STATE_DIR / "db.sqlite3", "OPTIONS": {"timeout": 20}}
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_TZ = True
TIME_ZONE = "UTC"
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/accounts/login/"
OIDC_TOKEN_EXPIRE = 300
OIDC_IDTOKEN_EXPIRE = 300
