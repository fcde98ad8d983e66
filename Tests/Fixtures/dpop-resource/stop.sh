#!/usr/bin/env bash
# Stop the fixture server started by start.sh (by the pid in .state/server.pid). Safe to run twice.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec bash "$here/../fixture-server.sh" stop "$here"
