"""The fifth fixture OpenID Connect provider: idpyoidc's server (stock, from PyPI) with its PAR
endpoint and its DPoP add-on, hosted by a small Flask app the way idpyoidc's own example
(example/flask_op) hosts it. See README.md for what is stock and what the configuration adds.
The host also serves IdentityFlow's extension API under /identityflow/ (extension_api.py, a Flask
blueprint on idpyoidc's own sessions and tokens).

    python server.py PORT STATE_DIR

Listens on 127.0.0.1 only, one request at a time (idpyoidc keeps its sessions in memory).
"""

import json
import os
import sys
import traceback

from flask import Flask, make_response, redirect, request
from idpyoidc.message.oauth2 import ResponseMessage
from idpyoidc.message.oidc import AccessTokenRequest, AuthorizationRequest
from idpyoidc.server import Server
from idpyoidc.server.configure import OPConfiguration
from idpyoidc.server.exception import FailedAuthentication
from idpyoidc.server.oauth2.add_on import pkce
from idpyoidc.server.oidc.token import Token

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import extension_api  # noqa: E402  (the IdentityFlow extension API, an add-on of the host)
import fixture_binding  # noqa: E402  (this folder's add-on and request class)
CLIENT_ID = "identityflow-tests"
REDIRECT_URI = "identityflow://callback"
# The resource server fixture (../dpop-resource) introspects tokens with this confidential client.
RESOURCE_CLIENT_ID = "identityflow-resource"
RESOURCE_CLIENT_SECRET = "identityflow-resource-secret"
USER = "alice"
PASSWORD = "alice-password-1"


def configuration(issuer: str, state: str) -> dict:
    """idpyoidc's configuration: every endpoint, add-on and key is a setting of the library."""
    return {
        "issuer": issuer,
        "httpc_params": {"verify": False},
        "keys": {
            "private_path": f"{state}/jwks.json",
            "key_defs": [{"type": "RSA", "use": ["sig"]}, {"type": "EC", "crv": "P-256", "use": ["sig"]}],
            "read_only": False,
            "uri_path": "jwks",
        },
        "token_handler_args": {
            "jwks_def": {
                "private_path": f"{state}/token_jwks.json",
                "read_only": False,
                "key_defs": [{"type": "OCT", "bytes": 24, "use": ["enc"], "kid": "code"}],
            },
            "code": {"kwargs": {"lifetime": 600}},
            # JWT access tokens: idpyoidc writes the DPoP key's thumbprint into them as cnf.jkt.
            "token": {
                "class": "idpyoidc.server.token.jwt_token.JWTToken",
                "kwargs": {"lifetime": 3600, "add_claims_by_scope": True},
            },
            "refresh": {"kwargs": {"lifetime": 86400}},
            "id_token": {"class": "idpyoidc.server.token.id_token.IDToken", "kwargs": {}},
        },
        "cookie_handler": {
            "class": "idpyoidc.server.cookie_handler.CookieHandler",
            "kwargs": {
                "keys": {
                    "private_path": f"{state}/cookie_jwks.json",
                    "key_defs": [
                        {"type": "OCT", "use": ["enc"], "kid": "enc"},
                        {"type": "OCT", "use": ["sig"], "kid": "sig"},
                    ],
                    "read_only": False,
                },
                "name": {"session": "oidc_op", "register": "oidc_op_rp", "session_management": "sman"},
            },
        },
        "preference": {
            "subject_types_supported": ["public"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
        },
        "authz": {
            "class": "idpyoidc.server.authz.AuthzHandling",
            "kwargs": {
                "grant_config": {
                    "usage_rules": {
                        "authorization_code": {
                            "supports_minting": ["access_token", "refresh_token", "id_token"],
                            "max_usage": 1,
                        },
                        "access_token": {},
                        "refresh_token": {"supports_minting": ["access_token", "refresh_token"]},
                    },
                    "expires_in": 43200,
                }
            },
        },
        "authentication": {
            "user": {
                "acr": "urn:oasis:names:tc:SAML:2.0:ac:classes:InternetProtocolPassword",
                "class": "idpyoidc.server.user_authn.user.UserPassJinja2",
                "kwargs": {
                    "verify_endpoint": "/verify/user",
                    "template": "user_pass.jinja2",
                    "db": {"class": "idpyoidc.server.util.JSONDictDB", "kwargs": {"filename": f"{state}/passwd.json"}},
                    "page_header": "IdentityFlow fixture (idpyoidc)",
                },
            }
        },
        "userinfo": {"class": "idpyoidc.server.user_info.UserInfo", "kwargs": {"db_file": f"{state}/users.json"}},
        "template_dir": os.path.join(HERE, "templates"),
        "endpoint": {
            "provider_config": {
                "path": ".well-known/openid-configuration",
                "class": "idpyoidc.server.oidc.provider_config.ProviderConfiguration",
                "kwargs": {"client_authn_method": None},
            },
            "authorization": {
                "path": "authorization",
                "class": "idpyoidc.server.oidc.authorization.Authorization",
                "kwargs": {
                    "client_authn_method": None,
                    "request_uri_parameter_supported": True,
                    "request_cls": fixture_binding.PushedRequestReference,
                    "response_types_supported": ["code"],
                    "response_modes_supported": ["query"],
                },
            },
            "pushed_authorization": {
                "path": "par",
                "class": "idpyoidc.server.oauth2.pushed_authorization.PushedAuthorization",
                "kwargs": {"client_authn_method": ["none"], "ttl": 90},
            },
            "token": {
                "path": "token",
                "class": "idpyoidc.server.oidc.token.Token",
                "kwargs": {"client_authn_method": ["none"], "revoke_refresh_on_issue": True},
            },
            "userinfo": {
                "path": "userinfo",
                "class": "idpyoidc.server.oidc.userinfo.UserInfo",
                "kwargs": {"client_authn_method": ["bearer_header", "dpop"]},
            },
            "introspection": {
                "path": "introspection",
                "class": "idpyoidc.server.oauth2.introspection.Introspection",
                "kwargs": {
                    "client_authn_method": ["client_secret_basic"],
                    "enforce_audience_restriction": False,
                },
            },
            "token_revocation": {
                "path": "revoke",
                "class": "idpyoidc.server.oauth2.token_revocation.TokenRevocation",
                "kwargs": {"client_authn_method": ["none"]},
            },
        },
        "add_on": {
            "pkce": {
                "function": "idpyoidc.server.oauth2.add_on.pkce.add_support",
                "kwargs": {"essential": True, "code_challenge_methods": {"S256": pkce.CC_METHOD["S256"]}},
            },
            # idpyoidc's DPoP add-on: verifies the proof on the token endpoint (signature, typ,
            # alg, htm, htu), issues token_type DPoP and writes cnf.jkt into the access token.
            "dpop": {
                "function": "idpyoidc.server.oauth2.add_on.dpop.add_support",
                "kwargs": {"dpop_signing_alg_values_supported": ["ES256"], "dpop_endpoints": ["token"]},
            },
            # What idpyoidc 5.0.0 lacks (README.md): refresh tokens bound to the key, dpop_jkt
            # checked at the exchange, PAR required. Hooks registered the way the add-ons above
            # register theirs, through idpyoidc's add-on setting.
            "binding": {"function": "fixture_binding.add_support", "kwargs": {}},
        },
    }


def clients() -> dict:
    """The registered clients (idpyoidc's client database), as its tests register them."""
    return {
        CLIENT_ID: {
            "client_id": CLIENT_ID,
            "client_salt": "salted",
            "token_endpoint_auth_method": "none",
            "redirect_uris": [(REDIRECT_URI, {})],
            "response_types": ["code"],
            "grant_types": ["authorization_code", "refresh_token"],
            "allowed_scopes": ["openid", "profile", "email", "offline_access"],
            "pkce_essential": True,
            # ES256 ID tokens: the FAPI 2.0 profile takes PS256 or ES256 only (idpyoidc's default is RS256).
            "id_token_signed_response_alg": "ES256",
            "require_pushed_authorization_requests": True,
            "dpop_bound_access_tokens": True,
        },
        RESOURCE_CLIENT_ID: {
            "client_id": RESOURCE_CLIENT_ID,
            "client_secret": RESOURCE_CLIENT_SECRET,
            "client_salt": "salted",
            "token_endpoint_auth_method": "client_secret_basic",
            "redirect_uris": [],
            "allowed_scopes": [],
        },
    }


def make_app(port: int, state: str) -> Flask:
    issuer = f"http://127.0.0.1:{port}"
    os.makedirs(state, exist_ok=True)
    with open(f"{state}/passwd.json", "w") as file:
        json.dump({USER: PASSWORD}, file)
    with open(f"{state}/users.json", "w") as file:
        json.dump(
            {
                USER: {
                    "sub": USER,
                    "name": "Alice Example",
                    "given_name": "Alice",
                    "family_name": "Example",
                    "preferred_username": USER,
                    "email": "alice@example.org",
                    "email_verified": True,
                }
            },
            file,
        )
    server = Server(OPConfiguration(conf=configuration(issuer, state), base_path=HERE), cwd=HERE)
    server.context.cdb.update(clients())
    # idpyoidc 5.0.0 rebuilds its discovery document after the add-ons ran, dropping what its DPoP
    # add-on wrote there; the fixture states it again, with what fixture_binding.py enforces.
    server.context.provider_info.update(
        {
            "dpop_signing_alg_values_supported": server.context.add_on["dpop"]["algs_supported"],
            "require_pushed_authorization_requests": True,
            "authorization_response_iss_parameter_supported": True,
        }
    )
    app = Flask(__name__)
    app.server = server

    def service(name: str):
        return endpoint_response(server, server.get_endpoint(name))

    app.add_url_rule("/.well-known/openid-configuration", "discovery", lambda: service("provider_config"))
    app.add_url_rule("/authorization", "authorization", lambda: service("authorization"))
    app.add_url_rule("/par", "par", lambda: service("pushed_authorization"), methods=["POST"])
    app.add_url_rule("/token", "token", lambda: service("token"), methods=["POST"])
    app.add_url_rule("/userinfo", "userinfo", lambda: service("userinfo"), methods=["GET", "POST"])
    app.add_url_rule("/introspection", "introspection", lambda: service("introspection"), methods=["POST"])
    app.add_url_rule("/revoke", "revoke", lambda: service("token_revocation"), methods=["POST"])
    app.add_url_rule("/jwks", "jwks", lambda: jwks(server))
    app.add_url_rule("/verify/user", "verify_user", lambda: verify_user(server), methods=["POST"])
    # The IdentityFlow extension API under /identityflow/, on idpyoidc's sessions and tokens (README.md).
    app.register_blueprint(extension_api.blueprint(server, CLIENT_ID, REDIRECT_URI))
    return app


def jwks(server: Server):
    """The provider's public signing keys, as JSON."""
    response = make_response(server.context.keyjar.export_jwks_as_json(issuer=""), 200)
    response.headers["Content-Type"] = "application/json"
    return response


def verify_user(server: Server):
    """The login form's answer, as idpyoidc's example handles it."""
    method = server.context.authn_broker.get_method_by_id("user")
    form = dict(request.form.items())
    try:
        username = method.verify(**form)
    except FailedAuthentication:
        return make_response('<p class="login-error">Wrong user name or password.</p>', 200)
    auth_args = method.unpack_token(form["token"])
    authz_request = AuthorizationRequest().from_urlencoded(auth_args["query"])
    endpoint = server.get_endpoint("authorization")
    session_id = endpoint.create_session(
        authz_request, username, auth_args["authn_class_ref"], auth_args["iat"], method
    )
    args = endpoint.authz_part2(request=authz_request, session_id=session_id)
    if isinstance(args, ResponseMessage) and "error" in args:
        return make_response(args.to_json(), 400)
    return do_response(endpoint, authz_request, **args)


def do_response(endpoint, req_args, error="", **args):
    """An endpoint's answer as a Flask response, as idpyoidc's example builds it."""
    info = endpoint.do_response(request=req_args, error=error, **args)
    placement = info.get("response_placement", endpoint.response_placement)
    if placement == "body":
        resp = make_response(info["response"], info.get("response_code", 400 if error else 200))
    else:
        resp = redirect(info["response"])
    for key, value in info["http_headers"]:
        resp.headers[key] = value
    cookies = info.get("cookie") or []
    for cookie in cookies if isinstance(cookies, list) else [cookies]:
        kwargs = {k: v for k, v in cookie.items() if k != "name"}
        kwargs["path"] = "/"
        kwargs["samesite"] = "Lax"
        resp.set_cookie(cookie["name"], **kwargs)
    return resp


def json_error(error: str, description: str, status: int = 400):
    response = make_response(json.dumps({"error": error, "error_description": description}), status)
    response.headers["Content-Type"] = "application/json"
    return response


def endpoint_response(server: Server, endpoint):
    """One endpoint call, as idpyoidc's example service_endpoint does it."""
    http_info = {
        "headers": {k: v for k, v in request.headers.items(lower=True) if k not in ("cookie", "user-agent")},
        "method": request.method,
        "url": request.url,
        "cookie": [{"name": k, "value": v} for k, v in request.cookies.items()],
    }
    try:
        if request.method == "GET":
            req_args = endpoint.parse_request(request.args.to_dict(), http_info=http_info)
        else:
            body = request.get_data(as_text=True)
            req_args = endpoint.parse_request(body or dict(request.form.items()), http_info=http_info)
    except Exception as error:
        app_log(f"{endpoint.name}: {error!r}")
        traceback.print_exc()
        status = 401 if endpoint.name in ("userinfo", "introspection") else 400
        return json_error("invalid_request", str(error), status)
    if isinstance(req_args, ResponseMessage) and "error" in req_args:
        app_log(f"{endpoint.name}: {req_args.to_dict()}")
        response = make_response(req_args.to_json(), 401 if endpoint.name == "userinfo" else 400)
        response.headers["Content-Type"] = "application/json"
        return response
    try:
        if isinstance(endpoint, Token):
            # Refresh tokens for every code and refresh grant (idpyoidc's OpenID Connect helpers
            # otherwise issue them only for the offline_access scope, which needs prompt=consent).
            args = endpoint.process_request(AccessTokenRequest(**req_args), http_info=http_info, issue_refresh=True)
        else:
            args = endpoint.process_request(req_args, http_info=http_info)
    except Exception as error:
        traceback.print_exc()
        return json_error("invalid_request", str(error))
    if isinstance(args, ResponseMessage) and "error" in args:
        response = make_response(args.to_json(), 400)
        response.headers["Content-Type"] = "application/json"
        return response
    if "redirect_location" in args:
        return redirect(args["redirect_location"])
    if "http_response" in args:
        response = make_response(args["http_response"], 201 if endpoint.name == "pushed_authorization" else 200)
        if endpoint.name == "pushed_authorization":
            response.headers["Content-Type"] = "application/json"
        return response
    if "error" in args.get("response_args", {}):
        return json_error(args["response_args"]["error"], args["response_args"].get("error_description", ""))
    return do_response(endpoint, req_args, **args)


def app_log(message: str):
    print(message, file=sys.stderr, flush=True)


if __name__ == "__main__":
    port = int(sys.argv[1])
    state = os.path.abspath(sys.argv[2])
    make_app(port, state).run(host="127.0.0.1", port=port, threaded=False, use_reloader=False)
