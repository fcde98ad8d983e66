"""URL map: DOT's OpenID provider under /o/, the login page, the IdentityFlow extension.

Discovery is DOT's own, unpatched: its openid-configuration names no revocation_endpoint, which
only its RFC 8414 document (/o/.well-known/oauth-authorization-server) lists, as stock providers
publish it. The issuer is http://127.0.0.1:<port>/o.
"""
from django.contrib.auth import views as auth_views
from django.urls import include, path

urlpatterns = [
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("identityflow/", include("extension.urls")),
]
