#!/usr/bin/env bash
# Runs the whole test suite with the flows started by a plain `Task` instead of `Task.immediate`
# (-DIDENTITYFLOW_PLAIN_TASK), the start iOS 16-25 and macOS 13-15 use: those systems lack
# `Task.immediate`, so there every answer the flows wait for arrives after a task hop. Extra
# arguments go to `swift test` (for example `--filter Registration`). Its own scratch path,
# `.build-plaintask`, keeps the normal build. Not in CI (a second full build of the suite).
set -euo pipefail
cd "$(dirname "$0")/.."
exec swift test --scratch-path .build-plaintask -Xswiftc -DIDENTITYFLOW_PLAIN_TASK "$@"
