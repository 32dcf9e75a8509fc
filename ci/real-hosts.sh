#!/usr/bin/env bash
# The real-CLI differential lanes in full: every ctest labelled sweep (each also labelled
# real-host), with PINTA_REAL_HOST_FULL=1 so each runs all its hand scenarios (the README's test
# command, ci/test.sh, runs a fixed slice of each: emulator/lanes/real_slice.py). Builds nothing:
# run it after ci/test.sh (or ci/build.sh) in the same tree. Extra arguments go to ctest (-R codex).
# Exit: ctest's status (a lane whose CLI cannot be installed is SKIPPED by its own exit 77).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ ! -f build/CTestTestfile.cmake ]; then
  echo "real-hosts: no build/ test tree; run ci/test.sh or ci/build.sh first" >&2
  exit 2
fi
PINTA_REAL_HOST_FULL=1 exec ctest --test-dir build -L sweep --output-on-failure \
  --no-tests=error -j"$(nproc)" "$@"
