#!/usr/bin/env bash
# Start the fifth OpenID Connect fixture (idpyoidc with PAR and DPoP required) on 127.0.0.1 and print its issuer on the last line.
#
#   Tests/Fixtures/oidc-dpop/start.sh [port]      (default port 8769, or $IDENTITYFLOW_FIXTURE_PORT)
#
# See ../fixture-server.sh for what it does, and fixture.sh for how this fixture is served.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec bash "$here/../fixture-server.sh" start "$here" 8769 "" "$@"
