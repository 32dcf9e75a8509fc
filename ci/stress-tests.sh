#!/usr/bin/env bash
# The default tests under CPU contention: `ctest -j2` of a built tree (what ci/test.sh runs after
# its set-up and build) on a machine kept busy by K busy loops per core plus a compile loop, N
# times; every test must pass every time (a SKIPPED test with its reason is not a failure).
#
# usage: ci/stress-tests.sh [--runs N] [--busy-per-core K] [--no-build-load] [--build DIR]
#                           [--run-budget SECONDS] [-R REGEX] [--record DIR]
#   default: 10 runs, 4 busy loops per core, a compile loop, the tree build/ (built beforehand:
#   `bash ci/build.sh`), each run capped at 3600 s. -R passes a test filter to ctest.
#   --record DIR keeps the evidence: a line per run appended to DIR/runs.tsv (UTC start, the
#   source revision with "+dirty" when the work tree differs from it, run, wall s, load average at
#   the end, exit, passed, failed, skipped, total, the load) and the run's log as
#   DIR/<start>.log. A series can so be run in parts (a loaded run is ~30 minutes here) and added
#   up by revision.
# The runs test the tree as it is: do not rebuild it meanwhile (a test tree cannot be copied
# aside: its tests name their own paths; ci/stress-conformance.sh copies its two programs). The
# load is started afresh for each run and stopped after it. Prints one line per run
# (wall, load average, passed / failed / not run) and the failing tests' names; the run logs stay
# in the printed directory. Exit 0 when every run passed every test, 1 otherwise, 2 on a usage error.
# The figures: docs/benchmarks-history.md ("The default tests under load").
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
runs=10 per_core=4 build_load=1 build=build run_budget=3600 filter=() record=
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="${2:?}"; shift ;;
    --busy-per-core) per_core="${2:?}"; shift ;;
    --no-build-load) build_load=0 ;;
    --build) build="${2:?}"; shift ;;
    --run-budget) run_budget="${2:?}"; shift ;;
    -R) filter=(-R "${2:?}"); shift ;;
    --record) record="${2:?}"; shift ;;
    *) echo "stress-tests.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ -f "$build/CTestTestfile.cmake" ] || { echo "stress-tests.sh: $build is not a built tree (bash ci/build.sh)" >&2; exit 2; }
command -v ctest >/dev/null || { echo "stress-tests.sh: ctest is not on PATH" >&2; exit 2; }
if [ -n "$record" ]; then
  mkdir -p "$record" || { echo "stress-tests.sh: cannot create $record" >&2; exit 2; }
  [ -f "$record/runs.tsv" ] || printf 'start\trevision\trun\twall_s\tload\texit\tpassed\tfailed\tskipped\ttotal\tload_desc\n' >"$record/runs.tsv"
fi
revision=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || revision+="+dirty"
out="$(mktemp -d /tmp/pinta-stress-tests-XXXXXX)"
source ci/stress-load.sh
trap 'stress_load_stop' EXIT
trap 'exit 130' INT TERM
echo "stress-tests: logs in $out"
failed_runs=0
for i in $(seq "$runs"); do
  stress_load_start "$per_core" "$build_load" "$run_budget" "$out"
  sleep 2
  t0=$(date +%s) start=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  (cd "$build" && timeout "$run_budget" ctest -j2 --output-on-failure "${filter[@]}") >"$out/run$i.log" 2>&1 &
  load_pids+=($!)
  wait $!
  rc=$?
  load=$(cut -d' ' -f1 /proc/loadavg)
  stress_load_stop
  wall=$(( $(date +%s) - t0 ))
  total=$(sed -n 's/.*tests passed, \([0-9]*\) tests failed out of \([0-9]*\).*/\2/p' "$out/run$i.log")
  failed=$(grep -cE '^\s*[0-9]+/[0-9]+ Test +#[0-9]+: .*\*\*\*(Failed|Timeout|Exception)' "$out/run$i.log")
  passed=$(grep -cE '^\s*[0-9]+/[0-9]+ Test +#[0-9]+: .* Passed' "$out/run$i.log")
  skipped=$(grep -cE '^\s*[0-9]+/[0-9]+ Test +#[0-9]+: .*(Not Run|Skipped)' "$out/run$i.log")
  echo "run $i: $wall s, load $load, exit $rc: $passed passed, $failed failed, $skipped skipped${total:+ of $total}"
  if [ -n "$record" ]; then
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$start" "$revision" "$i" "$wall" "$load" "$rc" \
      "$passed" "$failed" "$skipped" "${total:-?}" "$(stress_load_desc)" >>"$record/runs.tsv"
    cp "$out/run$i.log" "$record/$start.log"
  fi
  if [ "$rc" != 0 ] || [ "$failed" != 0 ]; then
    failed_runs=$((failed_runs + 1))
    grep -E '\*\*\*(Failed|Timeout|Exception)' "$out/run$i.log" | sed 's/^/    /' | head -20
    [ "$rc" = 124 ] && echo "    (stopped at the ${run_budget}-s cap: the tests not yet run count as failed)"
  fi
done
echo "stress-tests: $(( runs - failed_runs )) of $runs run(s) passed under $(stress_load_desc)"
[ "$failed_runs" = 0 ]
