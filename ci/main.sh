#!/usr/bin/env bash
# The project's main job: sets up (ci/install-deps.sh --main: compiler, CMake and the libraries
# only), builds the programs it needs (ci/build.sh --main: pinta-gemini, conformance, hostemu,
# pinta-fake-server; tests off in a new build/) and runs the conformance suite (conformance/cases)
# against the built adapter under every emulated host, with reports in build/conformance-report/.
# Each stage's wall time goes to stderr ("main: STAGE N s"); docs/benchmarks.md has the figures.
# The tests are ci/test.sh's job.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

t0=$(date +%s)
stage() {  # stage NAME CMD...: run CMD and report its wall time
  local name=$1 s rc=0
  shift
  s=$(date +%s)
  "$@" || rc=$?
  echo "main: $name $(( $(date +%s) - s )) s" >&2
  return "$rc"
}
stage install-deps bash ci/install-deps.sh --main
stage build bash ci/build.sh --main
stage conformance build/bin/conformance run --adapter build/bin/pinta-gemini --host all \
  --report build/conformance-report
echo "main: total $(( $(date +%s) - t0 )) s" >&2
