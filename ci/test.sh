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

t0=$(date +%s)
bash ci/install-deps.sh
t1=$(date +%s)
bash ci/build.sh
t2=$(date +%s)
rc=0
ctest --test-dir build --output-on-failure --no-tests=error -j"$(nproc)" || rc=$?
t3=$(date +%s)
# Where stage 1's time went, for the CI log: the three phases, then the slowest tests by their
# recorded cost (ctest's own cost file: name, runs, seconds).
echo "ci/test.sh: install $((t1 - t0)) s, build $((t2 - t1)) s, ctest $((t3 - t2)) s"
cost=build/Testing/Temporary/CTestCostData.txt
if [ -f "$cost" ]; then
  echo "ci/test.sh: slowest tests (s):"
  awk '/^---/ { exit } NF == 3 { printf "  %7.1f  %s\n", $3, $1 }' "$cost" | sort -rn | head -15
fi
exit "$rc"
