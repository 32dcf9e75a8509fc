#!/usr/bin/env bash
# Sets up, builds, and runs every test; exits with ctest's status.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash ci/install-deps.sh
bash ci/build.sh
rc=0
ctest --test-dir build --output-on-failure --no-tests=error -j2 || rc=$?
exit "$rc"
