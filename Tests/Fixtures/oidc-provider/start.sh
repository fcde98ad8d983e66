#!/usr/bin/env bash
# Start the second OpenID Connect fixture (django-oidc-provider) on 127.0.0.1 and print its issuer on the last line.
#
#   Tests/Fixtures/oidc-provider/start.sh [port]      (default port 8766, or $IDENTITYFLOW_FIXTURE_PORT)
#
# Creates/updates the venv .venv (only when requirements.txt changed), migrates the SQLite
# database in .state/, creates the users and clients, starts the server in the background
# (pid in .state/server.pid, output in .state/server.log) and waits until discovery answers.
# Safe to run twice: a server already answering on the same port is reused.
# IDENTITYFLOW_FIXTURE_RESET=1 deletes the database first (the keys are kept).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
port="${1:-${IDENTITYFLOW_FIXTURE_PORT:-8766}}"
state="$here/.state"
venv="$here/.venv"
issuer="http://127.0.0.1:$port/openid"
discovery="$issuer/.well-known/openid-configuration"
export IDENTITYFLOW_FIXTURE_PORT="$port"
mkdir -p "$state"

answers() { curl -fsS --max-time 2 -o /dev/null "$discovery" 2>/dev/null; }

running_pid() {
    local pid
    pid="$(cat "$state/server.pid" 2>/dev/null)" || return 1
    [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null \
        && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "manage.py runserver" \
        && echo "$pid"
}

if pid="$(running_pid)"; then
    if [[ "$(cat "$state/server.port" 2>/dev/null)" == "$port" ]] && answers; then
        echo "fixture already running (pid $pid)"
        echo "$issuer"
        exit 0
    fi
    "$here/stop.sh"
fi

if [[ ! -x "$venv/bin/python" ]]; then
    python3 -m venv "$venv"
fi
wanted="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"
if [[ "$(cat "$venv/.requirements.sha256" 2>/dev/null)" != "$wanted" ]]; then
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
    echo "$wanted" >"$venv/.requirements.sha256"
fi

cd "$here"
if [[ "${IDENTITYFLOW_FIXTURE_RESET:-0}" == "1" ]]; then
    rm -f "$state/db.sqlite3"
fi
"$venv/bin/python" manage.py migrate --noinput -v0
"$venv/bin/python" manage.py fixture_setup

if curl -s --max-time 2 -o /dev/null "http://127.0.0.1:$port/"; then
    echo "port $port on 127.0.0.1 is taken by another process" >&2
    exit 1
fi

echo "=== $(date -u +%FT%TZ) starting on 127.0.0.1:$port" >>"$state/server.log"
nohup "$venv/bin/python" manage.py runserver --noreload "127.0.0.1:$port" \
    >>"$state/server.log" 2>&1 </dev/null &
pid=$!
echo "$pid" >"$state/server.pid"
echo "$port" >"$state/server.port"

for _ in $(seq 1 120); do
    if answers; then
        echo "fixture running (pid $pid, log $state/server.log)"
        echo "$issuer"
        exit 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
        echo "fixture server exited; last lines of $state/server.log:" >&2
        tail -n 20 "$state/server.log" >&2
        rm -f "$state/server.pid"
        exit 1
    fi
    sleep 0.5
done
echo "fixture did not answer $discovery within 60 s" >&2
"$here/stop.sh" >&2
exit 1
