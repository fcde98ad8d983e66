#!/bin/sh
# Kills a FileStorage writer with SIGKILL at random moments, 1,000 times by default, and checks
# after every kill that each item, profile and registration checkpoint it reported is there and
# readable, at the reported version or a newer one (CI runs the same test 200 times).
#
#   scripts/crash-kill.sh [KILLS]
set -eu
cd "$(dirname "$0")/.."
IDENTITYFLOW_CRASH_KILLS="${1:-1000}" swift test --filter CrashSafetyTests
