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
    path("biometric/enrol", pin.biometric_enrol),
    path("biometric/verify", pin.biometric_verify),
    path("biometric/<str:profile_id>", pin.biometric),
    path("profiles/<str:profile_id>", pin.profile),
]
