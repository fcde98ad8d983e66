"""OpenID discovery: DOT's document plus the revocation endpoint and the grants the clients use.

DOT's OIDC discovery view leaves out `revocation_endpoint` (RFC 8414 / RFC 7009), which the
IdentityFlow HTTP service reads to log out.
"""
import json

from django.urls import reverse
from oauth2_provider.views import ConnectDiscoveryInfoView


class DiscoveryView(ConnectDiscoveryInfoView):
    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        if response.status_code != 200:
            return response
        document = json.loads(response.content)
        document["revocation_endpoint"] = request.build_absolute_uri(reverse("oauth2_provider:revoke-token"))
        document["revocation_endpoint_auth_methods_supported"] = ["none"]
        document["grant_types_supported"] = ["authorization_code", "refresh_token"]
        document["response_modes_supported"] = ["query"]
        response.content = json.dumps(document)
        response["Content-Length"] = str(len(response.content))
        return response
