"""DOT validator that publishes the profile and email claims in the ID token and at userinfo."""
from oauth2_provider.oauth2_validators import OAuth2Validator


class ClaimsValidator(OAuth2Validator):
    def get_additional_claims(self):
        return {
            "preferred_username": lambda request: request.user.username,
            "name": lambda request: request.user.get_full_name() or request.user.username,
            "email": lambda request: request.user.email,
            "email_verified": lambda request: bool(request.user.email),
        }
