"""URL map: DOT's OpenID provider under /o/, the login page, the IdentityFlow extension."""
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path

from extension.discovery import DiscoveryView

urlpatterns = [
    # Before DOT's own route, so that discovery also advertises the revocation endpoint.
    # The issuer is http://127.0.0.1:<port>/o; the document answers with and without a final slash.
    re_path(r"^o/\.well-known/openid-configuration/?$", DiscoveryView.as_view(), name="discovery"),
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("identityflow/", include("extension.urls")),
]
