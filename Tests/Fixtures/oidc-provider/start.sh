#!/usr/bin/env bash
# Start the second OpenID Connect fixture (django-oidc-provider, stock) on 127.0.0.1 and print its issuer on the last line.
#
#   Tests/Fixtures/oidc-provider/start.sh [port]      (default port 8766, or $IDENTITYFLOW_FIXTURE_PORT)
#
# See ../fixture-server.sh for what it does.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec bash "$here/../fixture-server.sh" start "$here" 8766 /openid "$@"
