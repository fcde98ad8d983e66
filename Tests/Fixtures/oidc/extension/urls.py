"""Extension endpoints under /identityflow/ (docs/extension-api.openapi.yaml)."""
from django.conf import settings
from django.urls import path

from . import mobile_auth, pin, registration

urlpatterns = [
    path("identity-providers", registration.identity_providers),
    path("registration/custom/<str:idp>/init", registration.init),
    path("registration/custom/<str:idp>/complete", registration.complete),
    path("pin/enrol", pin.enrol),
    path("pin/challenge", pin.challenge),
    path("pin/verify", pin.verify),
    path("biometric/enrol", pin.biometric_enrol),
    path("biometric/verify", pin.biometric_verify),
    path("biometric/revoke", pin.biometric_revoke),
    path("profiles/<str:profile_id>", pin.profile),
    path("deregister", pin.deregister),
    path("mobile-auth/enrol", mobile_auth.enrol),
    path("mobile-auth/push", mobile_auth.push),
    path("mobile-auth/requests", mobile_auth.requests),
    path("mobile-auth/answer", mobile_auth.answer),
    path("implicit/enrol", mobile_auth.implicit_enrol),
    path("implicit/token", mobile_auth.implicit_token),
]

if settings.IDENTITYFLOW_TESTING_ENDPOINTS:
    urlpatterns += [
        path("testing/mobile-auth/send", mobile_auth.testing_send),
        path("testing/mobile-auth/requests/<str:request_id>", mobile_auth.testing_request),
    ]
