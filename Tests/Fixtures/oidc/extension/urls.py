"""Extension endpoints under /identityflow/ (docs/extension-api.openapi.yaml)."""
from django.urls import path

from . import pin, registration

urlpatterns = [
    path("identity-providers", registration.identity_providers),
    path("registration/custom/<str:idp>/init", registration.init),
    path("registration/custom/<str:idp>/complete", registration.complete),
    path("pin/enrol", pin.enrol),
    path("pin/challenge", pin.challenge),
    path("pin/verify", pin.verify),
    path("profiles/<str:profile_id>", pin.profile),
]
