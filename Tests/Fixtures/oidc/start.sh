#!/usr/bin/env bash
# Start the IdentityFlow OpenID Connect fixture (django-oauth-toolkit with the extension endpoints) on 127.0.0.1 and print its issuer on the last line.
#
#   Tests/Fixtures/oidc/start.sh [port]      (default port 8765, or $IDENTITYFLOW_FIXTURE_PORT)
#
# See ../fixture-server.sh for what it does.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec bash "$here/../fixture-server.sh" start "$here" 8765 /o "$@"
