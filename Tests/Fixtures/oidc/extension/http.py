"""JSON request parsing, error answers and bearer authentication shared by the extension views."""
import hashlib

from django.http import JsonResponse
from oauth2_provider.models import get_access_token_model

from .pin_fields import ApiError, field, json_object  # noqa: F401  (the views import ApiError and field from here)

AccessToken = get_access_token_model()


def error_response(error):
    """The JSON answer of an ApiError (pin_fields.py)."""
    response = JsonResponse(error.body(), status=error.status)
    if error.status == 401 and error.code == "invalid_token":
        response["WWW-Authenticate"] = 'Bearer error="invalid_token"'
    return response


def json_body(request):
    """The request's JSON object; 400 invalid_request when it is not one."""
    return json_object(request.body)


def bearer_token(request):
    """The live DOT access token of the Authorization header; 401 invalid_token otherwise.

    An implicit authentication token (issued without a refresh token, by implicit/token) serves
    resource servers only: 403 token_not_allowed at every extension endpoint.
    """
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise ApiError(401, "invalid_token", "A bearer access token is required.")
    checksum = hashlib.sha256(value.strip().encode("utf-8")).hexdigest()
    token = AccessToken.objects.select_related("user").filter(token_checksum=checksum).first()
    if token is None or token.is_expired() or token.user is None:
        raise ApiError(401, "invalid_token", "The access token is unknown, expired or revoked.")
    from .tokens import family_of  # tokens imports the models, which need the app registry

    if family_of(token) is None:
        raise ApiError(403, "token_not_allowed", "An implicit authentication token serves resource servers only.")
    return token


def api_view(*methods):
    """Wrap a view: CSRF-exempt, JSON 405 for other methods, ApiError turned into its answer."""

    def wrap(view):
        def handler(request, *args, **kwargs):
            if request.method not in methods:
                response = error_response(ApiError(405, "invalid_request", f"Use {' or '.join(methods)}."))
                response["Allow"] = ", ".join(methods)
                return response
            try:
                return view(request, *args, **kwargs)
            except ApiError as error:
                return error_response(error)

        handler.csrf_exempt = True
        handler.__name__ = view.__name__
        handler.__doc__ = view.__doc__
        return handler

    return wrap
