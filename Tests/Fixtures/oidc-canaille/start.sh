#!/usr/bin/env bash
# Start the fourth OpenID Connect fixture (Canaille, stock) on 127.0.0.1 and print its issuer on the last line.
#
#   Tests/Fixtures/oidc-canaille/start.sh [port]      (default port 8768, or $IDENTITYFLOW_FIXTURE_PORT)
#
# See ../fixture-server.sh for what it does, and fixture.sh for how this fixture is prepared.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec bash "$here/../fixture-server.sh" start "$here" 8768 "" "$@"
