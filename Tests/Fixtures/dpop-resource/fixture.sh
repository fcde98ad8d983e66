# How ../fixture-server.sh prepares and serves the DPoP resource server (sourced by it; see README.md).

# Readiness: the resource server has no discovery document; /health answers 200.
probe_path=/health

prepare_fixture() { :; }

# The provider whose tokens it accepts: IDENTITYFLOW_OIDC_ISSUER_5 (the oidc-dpop fixture), by
# default on its default port. Introspection is looked up at the first request, so the two start
# in any order.
serve_fixture() {
    printf '%s\n' "$venv/bin/python" "$here/server.py" "$port" "${IDENTITYFLOW_OIDC_ISSUER_5:-http://127.0.0.1:8769}"
}
