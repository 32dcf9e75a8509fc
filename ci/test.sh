#!/usr/bin/env bash
# Sets up (ci/install-deps.sh: the full set), builds everything with tests (ci/build.sh) and runs
# every registered ctest in parallel, -j$(nproc): tests that keep several cores busy (real-host
# lanes, the drift smoke slice, conformance runs over every host, the 64-adapter load test, the
# process campaigns, headless Chromium) take two slots (ctest PROCESSORS), so a 2-core machine runs
# them one at a time beside nothing else. Exits with ctest's status.
# Not in this run: the full Gemini CLI version sweep (ci/drift.sh, the version radar; ctest
# gemini_drift_probe runs its smoke slice) and the sanitizer, fuzzing and benchmark jobs
# (ci/sanitize.sh, ci/fuzz-smoke.sh, ci/bench.sh), all of which .ci/run runs after this.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash ci/install-deps.sh
bash ci/build.sh
rc=0
ctest --test-dir build --output-on-failure --no-tests=error -j"$(nproc)" || rc=$?
exit "$rc"
