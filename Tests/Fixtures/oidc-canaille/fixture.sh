# How ../fixture-server.sh prepares and serves Canaille (sourced by it; see README.md).

# Writes .state/canaille.toml (the secret key and the signing keys, RSA first, then P-384, made once
# and kept), brings the SQLite database up to date and makes sure the user and the clients exist,
# all with Canaille's own command line.
prepare_fixture() {
    canaille=("$venv/bin/python" "$venv/bin/canaille")
    if [[ "${IDENTITYFLOW_FIXTURE_RESET:-0}" == "1" ]]; then
        rm -f "$state/canaille.sqlite"
    fi
    make_key jwk-rsa.toml rsa
    make_key jwk-p384.toml ec --crv P-384
    if [[ ! -s "$state/secret-key" ]]; then
        "$venv/bin/python" -c 'import secrets; print(secrets.token_urlsafe(32))' >"$state/secret-key"
    fi
    cat >"$state/canaille.toml" <<TOML
SECRET_KEY = "$(cat "$state/secret-key")"
SERVER_NAME = "127.0.0.1:$port"
PREFERRED_URL_SCHEME = "http"

[CANAILLE]
NAME = "IdentityFlow fixture"

[CANAILLE_SQL]
DATABASE_URI = "sqlite:///$state/canaille.sqlite"

[CANAILLE_OIDC]
ACTIVE_JWKS = [$(cat "$state/jwk-rsa.toml"), $(cat "$state/jwk-p384.toml")]
TOML
    export CANAILLE_CONFIG="$state/canaille.toml"
    "${canaille[@]}" install >/dev/null 2>&1
    if [[ "$("${canaille[@]}" get user --user-name alice 2>/dev/null)" == "[]" ]]; then
        "${canaille[@]}" create user --quiet --user-name alice --password alice-password-1 \
            --emails alice@example.org --formatted-name "Alice Example" 2>/dev/null
    fi
    ensure_client identityflow-tests
    ensure_client identityflow-tests-ps256 --id-token-signed-response-alg PS256
    ensure_client identityflow-tests-es384 --id-token-signed-response-alg ES384
    ensure_client identityflow-confidential --token-endpoint-auth-method client_secret_basic \
        --client-secret identityflow-confidential-secret
}

# Makes a signing key with `canaille jwk create` (the rest of the arguments) into .state/$1, once,
# as the TOML inline table ACTIVE_JWKS takes.
make_key() {  # uses "${canaille[@]}", set by prepare_fixture
    if [[ ! -s "$state/$1" ]]; then
        "${canaille[@]}" jwk create "${@:2}" --format toml 2>/dev/null >"$state/$1.new"
        mv "$state/$1.new" "$state/$1"
    fi
}

# Creates the client $1 unless it exists (redirect URI and post-logout redirect URI (RP-Initiated
# Logout) identityflow://callback, the code and
# refresh grants, scopes openid profile email, public (`none`) unless the rest of the arguments
# name another --token-endpoint-auth-method, which are added), and makes it an audience of its own
# tokens, as Canaille's web console does when it creates a client.
ensure_client() {  # uses "${canaille[@]}", set by prepare_fixture
    local client_id="$1" id
    shift
    if [[ "$("${canaille[@]}" get client --client-id "$client_id" 2>/dev/null)" != "[]" ]]; then
        # Registered before provider logout was tested: register its post-logout redirect URI too.
        "${canaille[@]}" set client --quiet "$client_id" --post-logout-redirect-uris identityflow://callback 2>/dev/null
        return 0
    fi
    local method=none
    if [[ " $* " == *" --token-endpoint-auth-method "* ]]; then method=""; fi
    "${canaille[@]}" create client --quiet --client-id "$client_id" --client-name "IdentityFlow tests" \
        --redirect-uris identityflow://callback --post-logout-redirect-uris identityflow://callback \
        ${method:+--token-endpoint-auth-method "$method"} \
        --grant-types authorization_code --grant-types refresh_token --response-types code \
        --scope openid --scope profile --scope email "$@" 2>/dev/null
    id="$("${canaille[@]}" get client --client-id "$client_id" 2>/dev/null \
        | "$venv/bin/python" -c 'import json, sys; print(json.load(sys.stdin)[0]["id"])')"
    "${canaille[@]}" set client --quiet "$client_id" --audience "$id" 2>/dev/null
}

# Canaille's own server, one process (no worker processes to outlive a stop by pid).
serve_fixture() {
    printf '%s\n' "$venv/bin/python" "$venv/bin/canaille" run --bind "127.0.0.1:$port" --workers 0
}
