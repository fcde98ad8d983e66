"""oauthlib's OpenID server with the PKCE "plain" method removed.

DOT's COMPLIANT_BCP_RFC9700_PKCE_METHOD refuses "plain" only when the code is created (after the
consent form). Removing it from the grants makes the authorize request itself fail with a
redirect carrying error=invalid_request, before any login or consent; it also makes a
code_challenge without code_challenge_method (which defaults to "plain") fail.
"""
from oauthlib.openid import Server


class S256OnlyServer(Server):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for grant in (self.auth_grant, self.openid_connect_auth.proxy_target):
            grant._code_challenge_methods = {"S256": grant._code_challenge_methods["S256"]}
