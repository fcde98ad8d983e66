#!/usr/bin/env bash
# Start the third OpenID Connect fixture (django-allauth's identity provider, stock) on 127.0.0.1 and print its issuer on the last line.
#
#   Tests/Fixtures/oidc-allauth/start.sh [port]      (default port 8767, or $IDENTITYFLOW_FIXTURE_PORT)
#
# See ../fixture-server.sh for what it does.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec bash "$here/../fixture-server.sh" start "$here" 8767 "" "$@"
