#!/usr/bin/env bash
# Starts and stops a fixture server of Tests/Fixtures on 127.0.0.1, for the fixtures' start.sh and
# stop.sh (which say which fixture, its default port and its issuer path).
#
#   fixture-server.sh start FIXTURE_DIR DEFAULT_PORT ISSUER_PATH [port]
#   fixture-server.sh stop FIXTURE_DIR
#
# start creates/updates the venv FIXTURE_DIR/.venv (only when requirements.txt changed), prepares
# the fixture's state in .state/, starts the server in the background (pid in .state/server.pid,
# output in .state/server.log), waits until discovery answers and prints the issuer on its last
# line. A server already answering on the same port is reused. IDENTITYFLOW_FIXTURE_RESET=1
# deletes the database first (the keys are kept). stop stops the server by the pid in
# .state/server.pid; safe to run twice.
#
# A Django fixture is prepared by `manage.py migrate` and its `fixture_setup` command and served by
# `manage.py runserver`. Another fixture says how in FIXTURE_DIR/fixture.sh, which defines
# `prepare_fixture` (run in FIXTURE_DIR with $venv, $state and $port set) and `serve_fixture`
# (prints the server's command line, one word a line, its program inside $venv), and may set
# `probe_path` (a path on the server that answers 200 once it is up, for a server without discovery).
set -euo pipefail

command="$1"
here="$(cd "$2" && pwd)"
state="$here/.state"
venv="$here/.venv"

prepare_fixture() {
    if [[ "${IDENTITYFLOW_FIXTURE_RESET:-0}" == "1" ]]; then
        rm -f "$state/db.sqlite3"
    fi
    "$venv/bin/python" manage.py migrate --noinput -v0
    "$venv/bin/python" manage.py fixture_setup
}

serve_fixture() {
    printf '%s\n' "$venv/bin/python" manage.py runserver --noreload "127.0.0.1:$port"
}

if [[ -f "$here/fixture.sh" ]]; then
    source "$here/fixture.sh"
fi

# Whether pid is this fixture's server (and not a process that has since taken its number).
is_fixture_server() {
    [[ "$1" =~ ^[0-9]+$ ]] && kill -0 "$1" 2>/dev/null \
        && tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | grep -qF "$venv/bin/"
}

stop_server() {
    pid="$(cat "$state/server.pid" 2>/dev/null || true)"
    if ! is_fixture_server "$pid"; then
        rm -f "$state/server.pid"
        echo "fixture not running"
        return 0
    fi
    kill -TERM "$pid"
    for _ in $(seq 1 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
    done
    if kill -0 "$pid" 2>/dev/null; then
        kill -KILL "$pid"
        while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
    fi
    rm -f "$state/server.pid"
    echo "fixture stopped (pid $pid)"
}

start_server() {
    local default_port="$1" issuer_path="$2"
    port="${3:-${IDENTITYFLOW_FIXTURE_PORT:-$default_port}}"
    issuer="http://127.0.0.1:$port$issuer_path"
    # What answers once the server is up: discovery, or the fixture's own $probe_path (fixture.sh).
    discovery="$issuer/.well-known/openid-configuration"
    if [[ -n "${probe_path:-}" ]]; then discovery="http://127.0.0.1:$port$probe_path"; fi
    export IDENTITYFLOW_FIXTURE_PORT="$port"
    mkdir -p "$state"

    answers() { curl -fsS --max-time 2 -o /dev/null "$discovery" 2>/dev/null; }

    running_pid() {
        local pid
        pid="$(cat "$state/server.pid" 2>/dev/null)" || return 1
        is_fixture_server "$pid" && echo "$pid"
    }

    if pid="$(running_pid)"; then
        if [[ "$(cat "$state/server.port" 2>/dev/null)" == "$port" ]] && answers; then
            echo "fixture already running (pid $pid)"
            echo "$issuer"
            exit 0
        fi
        stop_server
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
    prepare_fixture
    mapfile -t server < <(serve_fixture)

    if curl -s --max-time 2 -o /dev/null "http://127.0.0.1:$port/"; then
        echo "port $port on 127.0.0.1 is taken by another process" >&2
        exit 1
    fi

    echo "=== $(date -u +%FT%TZ) starting on 127.0.0.1:$port" >>"$state/server.log"
    # The server keeps only stdin, stdout and stderr: a test process that runs start.sh would
    # otherwise hand it every descriptor it has open, and a test reading one of its pipes to the
    # end would wait as long as the server runs. It also starts with no signal blocked: started
    # from a test process's worker thread it would inherit that thread's mask, TERM included, and
    # stop would wait 10 s for it before killing it.
    (
        for descriptor in /proc/self/fd/*; do
            descriptor="${descriptor##*/}"
            if ((descriptor > 2)); then eval "exec ${descriptor}>&-" 2>/dev/null || true; fi
        done
        exec nohup "$venv/bin/python" -c 'import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])' \
            "${server[@]}"
    ) >>"$state/server.log" 2>&1 </dev/null &
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
    stop_server >&2
    exit 1
}

case "$command" in
    start) start_server "$3" "$4" "${5:-}" ;;
    stop) stop_server ;;
    *) echo "usage: fixture-server.sh start|stop FIXTURE_DIR ..." >&2; exit 2 ;;
esac
