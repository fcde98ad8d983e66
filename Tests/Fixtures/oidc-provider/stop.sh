#!/usr/bin/env bash
# Stop the fixture server started by start.sh (by the pid in .state/server.pid). Safe to run twice.
set -euo pipefail

state="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/.state"
pid="$(cat "$state/server.pid" 2>/dev/null || true)"
if [[ ! "$pid" =~ ^[0-9]+$ ]] || ! kill -0 "$pid" 2>/dev/null \
    || ! tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "manage.py runserver"; then
    rm -f "$state/server.pid"
    echo "fixture not running"
    exit 0
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
