"""Settings of the IdentityFlow OpenID Connect test fixture (127.0.0.1 only, never production).

Environment:
- IDENTITYFLOW_FIXTURE_PORT: port the server listens on; fixes the issuer
  http://127.0.0.1:<port>/o (default 8765).
- IDENTITYFLOW_ACCESS_TOKEN_SECONDS: access and ID token lifetime (default 300).
- IDENTITYFLOW_PIN_MAX_FAILURES: wrong PIN proofs allowed before deregistration (default 3).
- IDENTITYFLOW_PIN_NONCE_SECONDS: lifetime of a PIN challenge nonce (default 120).
- IDENTITYFLOW_REGISTRATION_SESSION_SECONDS: lifetime of a custom registration session (default 300).
- IDENTITYFLOW_FIXTURE_STATE: state directory (default .state beside manage.py).
- IDENTITYFLOW_IMPLICIT_SCOPES: scopes implicit authentication may obtain (default "read").
- IDENTITYFLOW_TESTING_ENDPOINTS: "1" (default) routes the back-office test endpoints that send
  mobile authentication requests; "0" leaves them out.
"""
import os

from . import state

PORT = int(os.environ.get("IDENTITYFLOW_FIXTURE_PORT", "8765"))
ISSUER = f"http://127.0.0.1:{PORT}/o"
ACCESS_TOKEN_SECONDS = int(os.environ.get("IDENTITYFLOW_ACCESS_TOKEN_SECONDS", "300"))
PIN_MAX_FAILURES = int(os.environ.get("IDENTITYFLOW_PIN_MAX_FAILURES", "3"))
PIN_NONCE_SECONDS = int(os.environ.get("IDENTITYFLOW_PIN_NONCE_SECONDS", "120"))
# Scopes implicit authentication may obtain without the user (docs/mobile-auth.md).
IMPLICIT_SCOPES = os.environ.get("IDENTITYFLOW_IMPLICIT_SCOPES", "read").split()
# The back-office endpoints tests use to send mobile authentication requests (never in production).
IDENTITYFLOW_TESTING_ENDPOINTS = os.environ.get("IDENTITYFLOW_TESTING_ENDPOINTS", "1") == "1"
REGISTRATION_SESSION_SECONDS = int(os.environ.get("IDENTITYFLOW_REGISTRATION_SESSION_SECONDS", "300"))

# The application every token minted outside the browser flow (custom registration, PIN) belongs to.
TOKEN_APPLICATION_CLIENT_ID = "identityflow-tests"

SECRET_KEY = state.secret_key()
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
CSRF_TRUSTED_ORIGINS = [f"http://127.0.0.1:{PORT}", f"http://localhost:{PORT}"]

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "oauth2_provider",
    "extension",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "oidc_site.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [state.FIXTURE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": state.STATE_DIR / "db.sqlite3",
        "OPTIONS": {"timeout": 20},
    }
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_TZ = True
TIME_ZONE = "UTC"

LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/accounts/login/"

OAUTH2_PROVIDER = {
    "OIDC_ENABLED": True,
    "OIDC_ISS_ENDPOINT": ISSUER,
    "OIDC_RSA_PRIVATE_KEY": state.rsa_private_key_pem(),
    "OIDC_RESPONSE_TYPES_SUPPORTED": ["code"],
    "OIDC_TOKEN_ENDPOINT_AUTH_METHODS_SUPPORTED": ["none", "client_secret_post", "client_secret_basic"],
    "OAUTH2_VALIDATOR_CLASS": "extension.oidc_claims.ClaimsValidator",
    "OIDC_SERVER_CLASS": "extension.oauth_server.S256OnlyServer",
    "SCOPES": {
        "openid": "Sign you in (OpenID Connect)",
        "profile": "Your name and username",
        "email": "Your e-mail address",
    },
    "DEFAULT_SCOPES": ["openid"],
    "PKCE_REQUIRED": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "ACCESS_TOKEN_EXPIRE_SECONDS": ACCESS_TOKEN_SECONDS,
    "ID_TOKEN_EXPIRE_SECONDS": ACCESS_TOKEN_SECONDS,
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 60,
    "ALLOWED_REDIRECT_URI_SCHEMES": ["http", "https", "identityflow"],
    "REQUEST_APPROVAL_PROMPT": "force",
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {
        "oauth2_provider": {"handlers": ["console"], "level": "WARNING"},
        # DEBUG is off, so without this a 500's traceback would not reach .state/server.log.
        "django.request": {"handlers": ["console"], "level": "ERROR", "propagate": False},
    },
}
