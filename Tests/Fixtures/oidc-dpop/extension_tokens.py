"""idpyoidc's own tokens for the IdentityFlow extension API (extension_api.py): a PIN or biometric
login opens a session (user, client, grant) in idpyoidc's session manager as the authorization
endpoint does, and mints its access and refresh token with the token endpoint's own helper, bound
to the login's DPoP key as the token endpoint binds them (`grant.extra["dpop_jkt"]`, which
idpyoidc writes into the JWT access token as `cnf.jkt` and fixture_binding.py checks at every
refresh). So `/token` refreshes them, `/introspection` reports them and `/revoke` revokes them.

A grant stands for one sign-in (DOT's refresh-token family): the extension API records which
grants belong to a profile and revokes them with it.
"""

import time

from idpyoidc.message.oidc import AuthorizationRequest
from idpyoidc.server.authn_event import create_authn_event
from idpyoidc.time_util import utc_time_sans_frac

SCOPE = ["openid", "profile", "email"]


class Unusable(Exception):
    """An access token idpyoidc does not know, or a revoked, expired or other kind of token."""


class ProviderTokens:
    """Tokens of `client_id` (a public client registered with `redirect_uri`) on idpyoidc `server`."""

    def __init__(self, server, client_id: str, redirect_uri: str):
        self.server, self.client_id, self.redirect_uri = server, client_id, redirect_uri

    @property
    def _context(self):
        return self.server.context

    def access_token(self, value: str) -> dict:
        """The live access token `value` of the test client: `{"user_id", "grant_id", "jkt"}`, where
        `grant_id` is its sign-in (idpyoidc's branch id) and `jkt` the token's own `cnf.jkt`
        (None for an unbound token). Unusable otherwise."""
        manager = self._context.session_manager
        try:
            info = manager.get_session_info_by_token(value, grant=True, handler_key="access_token")
            payload = manager.token_handler.handler["access_token"].get_payload(value)
        except Exception:
            raise Unusable("the access token is unknown, expired or revoked")
        token = info["grant"].get_token(value)
        if token is None or token.token_class != "access_token" or not token.is_active() or info["client_id"] != self.client_id:
            raise Unusable("the access token is unknown, expired or revoked")
        return {"user_id": info["user_id"], "grant_id": info["branch_id"], "jkt": (payload.get("cnf") or {}).get("jkt")}

    def mint(self, user_id: str, jkt: str, method: str) -> tuple:
        """A new sign-in of `user_id` by `method` (`pin` or `biometric`): an access token and a
        refresh token of the test client bound to the key `jkt`. Returns the token response and
        the sign-in's grant id."""
        context = self._context
        manager = context.session_manager
        request = AuthorizationRequest(client_id=self.client_id, response_type="code", redirect_uri=self.redirect_uri, scope=SCOPE)
        event = create_authn_event(user_id, authn_info=f"urn:identityflow:{method}", time_stamp=int(time.time()))
        grant_id = manager.create_session(
            authn_event=event, auth_req=request, user_id=user_id, client_id=self.client_id,
            token_usage_rules=context.authz.usage_rules(self.client_id),
        )
        grant = context.authz(grant_id, request)  # scope, usage rules, lifetime, as at the authorization endpoint
        grant.extra["dpop_jkt"] = jkt
        # The token endpoint's helper mints as at a code exchange (lifetimes, token_args hooks, storage).
        helper = self.server.get_endpoint("token").grant_type_helper["authorization_code"]
        access = helper._mint_token(
            token_class="access_token", grant=grant, session_id=grant_id, client_id=self.client_id, token_type="DPoP"
        )
        refresh = helper._mint_token(token_class="refresh_token", grant=grant, session_id=grant_id, client_id=self.client_id)
        manager[grant_id] = grant
        answer = {
            "access_token": access.value,
            "token_type": "DPoP",
            "expires_in": access.expires_at - utc_time_sans_frac(),
            "refresh_token": refresh.value,
            "scope": " ".join(grant.scope),
        }
        return answer, grant_id

    def revoke(self, grant_ids):
        """Revokes every token of these sign-ins (refreshed ones included) and the grants themselves."""
        manager = self._context.session_manager
        for grant_id in grant_ids:
            try:
                grant = manager[grant_id]
            except Exception:
                continue
            grant.revoke_token()
            manager.revoke_grant(grant_id)
