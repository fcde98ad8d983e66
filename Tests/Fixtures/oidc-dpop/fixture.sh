# How ../fixture-server.sh prepares and serves the idpyoidc fixture (sourced by it; see README.md).

# Nothing to migrate: server.py writes the user and password files into .state/ and keeps the
# signing and cookie keys there (made on the first start). Sessions live in memory, so a restart
# is a reset; IDENTITYFLOW_FIXTURE_RESET=1 deletes the keys too.
prepare_fixture() {
    if [[ "${IDENTITYFLOW_FIXTURE_RESET:-0}" == "1" ]]; then
        rm -f "$state"/*.json
    fi
}

# One process, one request at a time (Flask's server, threads off): no worker to outlive a stop by pid.
serve_fixture() {
    printf '%s\n' "$venv/bin/python" "$here/server.py" "$port" "$state"
}
