"""An idpyoidc add-on (loaded by server.py's `add_on` setting, as idpyoidc loads its own): the parts
of RFC 9449 and RFC 9126 that idpyoidc 5.0.0's server does not do, so that the fixture is the strict
provider a FAPI 2.0 client meets. No library code is replaced: the hooks are appended to the
endpoints' `post_parse_request` lists, idpyoidc's extension point (its PKCE and DPoP add-ons use
the same).

- A refresh token is bound to the DPoP key of the exchange that issued it: a refresh with a proof of
  another key is refused (idpyoidc 5.0.0 would re-bind the grant to the new key).
- The code is bound to the authorization request's `dpop_jkt` (RFC 9449 section 10): the exchange
  must prove that key.
- A front-channel request of `client_id` and `request_uri` only is accepted (PushedRequestReference).
- Clients registered with `require_pushed_authorization_requests` must use PAR (RFC 9126 section
  5); discovery says so, and says `authorization_response_iss_parameter_supported` (idpyoidc adds
  `iss` to every authorization response, RFC 9207, without advertising it).
"""

from idpyoidc.message import oidc
from idpyoidc.message.oauth2 import ResponseMessage, TokenErrorResponse


class PushedRequestReference(oidc.AuthorizationRequest):
    """The authorization endpoint's request class (its `request_cls` setting): a request of only
    `client_id` and a pushed `request_uri` (RFC 9126 section 4) passes the message check, which in
    idpyoidc 5.0.0 asks for response_type, scope and redirect_uri again; idpyoidc's own hook then
    replaces it by the pushed request, checked in full at the PAR endpoint."""

    def verify(self, **kwargs):
        if set(self.keys()) <= {"client_id", "request_uri"} and str(self.get("request_uri", "")).startswith("urn:uuid:"):
            return True
        return super().verify(**kwargs)


def _require_par(error_cls):
    def hook(request, client_id, context, **kwargs):
        if isinstance(request, ResponseMessage):
            return request
        client = context.cdb.get(request.get("client_id") or client_id or "", {})
        if client.get("require_pushed_authorization_requests") and not str(request.get("request_uri", "")).startswith("urn:uuid:"):
            return error_cls(error="invalid_request", error_description="this client must push its authorization requests (PAR)")
        return request

    return hook


def _error(error: str, description: str) -> TokenErrorResponse:
    return TokenErrorResponse(error=error, error_description=description)


def _bind_to_key(request, client_id, context, **kwargs):
    if isinstance(request, ResponseMessage) or "error" in request:
        return request
    proved = request.get("dpop_jkt")
    grant_type = request.get("grant_type")
    if grant_type == "refresh_token":
        try:
            info = context.session_manager.get_session_info_by_token(
                request["refresh_token"], grant=True, handler_key="refresh_token"
            )
        except Exception:
            return request  # idpyoidc answers unknown tokens itself
        bound = info["grant"].extra.get("dpop_jkt")
        if bound and proved != bound:
            return _error("invalid_dpop_proof", "the refresh token is bound to another DPoP key")
    elif grant_type == "authorization_code":
        try:
            info = context.session_manager.get_session_info_by_token(
                request["code"], grant=True, handler_key="authorization_code"
            )
        except Exception:
            return request
        wanted = (info["grant"].authorization_request or {}).get("dpop_jkt")
        if wanted and proved != wanted:
            return _error("invalid_dpop_proof", "the proof's key is not the authorization request's dpop_jkt")
    return request


def add_support(endpoints: dict, **kwargs):
    authorization = endpoints["authorization"]
    # Before idpyoidc's own hooks, which replace a pushed request_uri by the request it stands for.
    authorization.post_parse_request.insert(0, _require_par(authorization.error_cls))
    endpoints["token"].post_parse_request.append(_bind_to_key)
