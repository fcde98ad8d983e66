"""JSON request parsing, error answers and bearer authentication shared by the extension views."""
import hashlib
import json

from django.http import JsonResponse
from oauth2_provider.models import get_access_token_model

AccessToken = get_access_token_model()


class ApiError(Exception):
    """An error answer: {"error": code, "error_description": text, **extra}."""

    def __init__(self, status, code, description, **extra):
        super().__init__(description)
        self.status, self.code, self.description, self.extra = status, code, description, extra

    def response(self):
        body = {"error": self.code, "error_description": self.description, **self.extra}
        response = JsonResponse(body, status=self.status)
        if self.status == 401 and self.code == "invalid_token":
            response["WWW-Authenticate"] = 'Bearer error="invalid_token"'
        return response


def json_body(request):
    """The request's JSON object; 400 invalid_request when it is not one."""
    try:
        body = json.loads(request.body or b"null")
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "invalid_request", "The body is not JSON.")
    if not isinstance(body, dict):
        raise ApiError(400, "invalid_request", "The body must be a JSON object.")
    return body


def field(body, name, kind, optional=False):
    """body[name] when it has the given type (None allowed when optional); 400 otherwise."""
    value = body.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ApiError(400, "invalid_request", f"'{name}' is missing or has the wrong type.")
    return value


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
                response = ApiError(405, "invalid_request", f"Use {' or '.join(methods)}.").response()
                response["Allow"] = ", ".join(methods)
                return response
            try:
                return view(request, *args, **kwargs)
            except ApiError as error:
                return error.response()

        handler.csrf_exempt = True
        handler.__name__ = view.__name__
        handler.__doc__ = view.__doc__
        return handler

    return wrap
