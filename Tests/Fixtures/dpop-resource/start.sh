#!/usr/bin/env bash
# Start the DPoP resource server fixture on 127.0.0.1 and print its API's URL on the last line.
#
#   Tests/Fixtures/dpop-resource/start.sh [port]      (default port 8770, or $IDENTITYFLOW_FIXTURE_PORT)
#
# It accepts the tokens of $IDENTITYFLOW_OIDC_ISSUER_5 (default http://127.0.0.1:8769, the oidc-dpop
# fixture). See ../fixture-server.sh for what it does, and fixture.sh for how it is served.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec bash "$here/../fixture-server.sh" start "$here" 8770 /api "$@"
