#!/usr/bin/env bash
# Runs the whole test suite under ThreadSanitizer. `Locked` is built on NSLock
# (-DIDENTITYFLOW_NSLOCK) because TSan does not model Synchronization.Mutex on this
# toolchain and would report races inside every lock. Extra arguments go to `swift test`
# (for example `--filter HostileNetwork`). A separate build directory keeps the normal build.
set -euo pipefail
cd "$(dirname "$0")/.."
exec swift test --sanitize=thread --scratch-path .build/tsan -Xswiftc -DIDENTITYFLOW_NSLOCK "$@"
