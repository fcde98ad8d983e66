"""The IdentityFlow extension API (docs/extension-api.openapi.yaml, docs/pin-proof.md) as an add-on
of this fixture: a Flask blueprint under /identityflow/ on the provider's own origin, registered by
server.py, built on idpyoidc's token machinery (extension_tokens.py) without patching it. The PIN
state is extension_profiles.py's; README.md ("The IdentityFlow extension API") has the tables.

DPoP (RFC 9449), as a FAPI 2.0 deployment needs it, with the resource server fixture's proof
checks (../dpop-resource/dpop_proof.py, imported):

- pin/verify and biometric/verify issue tokens, so they act as an authorization server (section
  5): a proof for the endpoint is required (`400 invalid_dpop_proof` without one), the first one
  without the server's nonce is answered `400 {"error": "use_dpop_nonce"}` with a `DPoP-Nonce`
  header (section 8), and the tokens are bound to the proof's key;
- pin/enrol and biometric/enrol take the user's access token, so they act as a resource server
  (section 7): `Authorization: DPoP <token>` with a proof whose `ath` is the token's hash and whose
  key is the token's `cnf.jkt`; refusals are `401` with `WWW-Authenticate: DPoP error="..."`, a
  missing nonce `error="use_dpop_nonce"` with `DPoP-Nonce` (section 9).

Each role keeps its own nonces (RFC 9449 lets an authorization server and a resource server
differ), so a client that remembers one nonce per origin meets both retries.
"""

import json
import os
import sys

from flask import Blueprint, make_response, request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.append(os.path.join(HERE, "..", "dpop-resource"))
from dpop_proof import ProofChecker, Refusal, presented  # noqa: E402  (../dpop-resource)
from extension_profiles import ApiError, Profiles, pin_fields  # noqa: E402  (imports ../oidc/extension's)
from extension_tokens import ProviderTokens, Unusable  # noqa: E402

METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"]
IDENTITY_PROVIDERS = [{"id": "oidc", "name": "idpyoidc (PAR, DPoP)", "type": "browser"}]


def json_answer(status: int, body, headers=None):
    response = make_response(json.dumps(body) if body is not None else "", status)
    if body is not None:
        response.headers["Content-Type"] = "application/json"
    response.headers["Cache-Control"] = "no-store"
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def json_body() -> dict:
    return pin_fields.json_object(request.get_data())


class DPoPRefused(Exception):
    """A refusal of the DPoP layer, answered with its status and headers."""

    def __init__(self, status: int, refusal: Refusal, headers: dict):
        super().__init__(refusal.description)
        self.status, self.refusal, self.headers = status, refusal, headers


class ExtensionAPI:
    def __init__(self, server, client_id: str, redirect_uri: str):
        self.tokens = ProviderTokens(server, client_id, redirect_uri)
        self.profiles = Profiles(self.tokens)
        self.token_issuing = ProofChecker()  # pin/verify, biometric/verify (authorization server)
        self.token_taking = ProofChecker()  # pin/enrol, biometric/enrol (resource server)

    def proof_key(self) -> str:
        """The thumbprint of the request's valid DPoP proof for issuing tokens; DPoPRefused otherwise."""
        checker = self.token_issuing
        nonce = {"DPoP-Nonce": checker.nonces.now()}
        proofs = request.headers.getlist("DPoP")
        try:
            if len(proofs) != 1:
                raise Refusal("invalid_dpop_proof", "one DPoP proof is required: this client's tokens are DPoP-bound")
            return checker.check_proof(proofs[0], request.method, request.url, None)["jkt"]
        except Refusal as refusal:
            raise DPoPRefused(400, refusal, nonce)

    def bound_token(self) -> dict:
        """The user's DPoP-bound access token presented with a valid proof by its key (as
        extension_tokens.ProviderTokens.access_token); DPoPRefused otherwise."""
        checker = self.token_taking
        nonce = checker.nonces.now()
        try:
            token, proof = presented(request.headers.getlist("Authorization"), request.headers.getlist("DPoP"))
            jkt = checker.check_proof(proof, request.method, request.url, token)["jkt"]
            try:
                info = self.tokens.access_token(token)
            except Unusable as error:
                raise Refusal("invalid_token", str(error))
            if info["jkt"] is None:
                raise Refusal("invalid_token", "the access token is not DPoP-bound")
            if info["jkt"] != jkt:
                raise Refusal("invalid_token", "the access token is bound to another key")
            return info
        except Refusal as refusal:
            challenge = f'DPoP error="{refusal.error}", error_description="{refusal.description}", algs="ES256"'
            raise DPoPRefused(401, refusal, {"WWW-Authenticate": challenge, "DPoP-Nonce": nonce})

    def handle(self, method: str, action):
        """Runs `action()` for `method`: its body as a 200 JSON answer (204 for None); ApiError and
        DPoPRefused as their answers; another method 405."""
        if request.method != method:
            return json_answer(405, ApiError(405, "invalid_request", f"Use {method}.").body(), {"Allow": method})
        try:
            body = action()
        except DPoPRefused as refused:
            print(f"identityflow {request.path}: {refused.refusal.error} ({refused.refusal.description})", file=sys.stderr, flush=True)
            return json_answer(refused.status, {"error": refused.refusal.error, "error_description": refused.refusal.description}, refused.headers)
        except ApiError as error:
            return json_answer(error.status, error.body())
        return json_answer(200, body) if body is not None else json_answer(204, None)

    # MARK: - Endpoints

    def pin_enrol(self):
        token = self.bound_token()
        return self.profiles.enrol(json_body(), token)

    def pin_verify(self, biometric: bool):
        jkt = self.proof_key()  # before anything is spent: a nonce round leaves the PIN challenge intact
        return self.profiles.verify(json_body(), jkt, biometric)

    def biometric_enrol(self):
        token = self.bound_token()
        self.profiles.biometric_enrol(json_body(), token)


def blueprint(server, client_id: str, redirect_uri: str) -> Blueprint:
    """The extension API's routes on idpyoidc `server`, minting tokens of `client_id` (registered
    with `redirect_uri`), for `app.register_blueprint`."""
    api = ExtensionAPI(server, client_id, redirect_uri)
    routes = Blueprint("identityflow", __name__, url_prefix="/identityflow")

    def route(path: str, method: str, action):
        endpoint = path.replace("/", "_").replace("<", "").replace(">", "")
        routes.add_url_rule(path, endpoint, lambda **kwargs: api.handle(method, lambda: action(**kwargs)), methods=METHODS)

    route("/identity-providers", "GET", lambda: IDENTITY_PROVIDERS)
    route("/pin/enrol", "POST", api.pin_enrol)
    route("/pin/challenge", "POST", lambda: api.profiles.challenge(json_body()))
    route("/pin/verify", "POST", lambda: api.pin_verify(biometric=False))
    route("/biometric/enrol", "POST", api.biometric_enrol)
    route("/biometric/verify", "POST", lambda: api.pin_verify(biometric=True))
    route("/biometric/revoke", "POST", lambda: api.profiles.biometric_revoke(json_body()))
    route("/profiles/<profile_id>", "GET", lambda profile_id: api.profiles.profile(profile_id))
    route("/deregister", "POST", lambda: api.profiles.deregister(json_body()))
    routes.api = api
    return routes
