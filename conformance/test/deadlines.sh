#!/usr/bin/env bash
# `conformance run` deadlines and --max-failures, against zoo members (bounded: a few seconds).
#  - a hung adapter under --case-deadline 1: the case is DEADLINE (a failure, not a pass), and the
#    summary counts the unit under the case deadline;
#  - --run-deadline: cases that could not start are DEADLINE too, counted under the run deadline;
#  - --max-failures 1 with a broken adapter: later cases are NOT-RUN and the run still fails;
#  - a background child holding stdout for 4 s costs a unit that expects closed pipes well under
#    those 4 s (the grader stops waiting once the verdict is decided).
# Usage: deadlines.sh CONFORMANCE ADAPTER ZOO-DIR
set -u
conf="$1" adapter="$2" zoo="$3"
work=$(mktemp -d "${TMPDIR:-/tmp}/pinta-conf-deadlines.XXXXXX")
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL $1"; sed 's/^/    /' "$work/out" | tail -15; fails=$((fails + 1)); }

# EXIT-0003 makes 8 runs; each takes the hung member 6.5 s, so the 1 s case deadline ends it.
rc=0
"$conf" run --adapter "bash $zoo/hangs.sh $adapter" --host gemini-0.61 --filter EXIT-0003 \
  --case-deadline 1 >"$work/out" 2>&1 || rc=$?
[ "$rc" = 1 ] && grep -q '^DEADLINE: EXIT-0003' "$work/out" &&
  grep -Eq '^1 case\(s\) hit a deadline: 1 case x host unit\(s\) the case deadline' "$work/out" ||
  fail "case deadline (rc $rc)"

# A run that started before the deadline may finish (the deadline only stops runs from starting),
# and a unit's setup can take well under 1 ms: with one worker, at most the first case passes.
rc=0
"$conf" run --adapter "$adapter" --host gemini-0.61 --filter OUT- --run-deadline 0.001 --jobs 1 \
  >"$work/out" 2>&1 || rc=$?
[ "$rc" = 1 ] && [ "$(grep -c '^PASS:' "$work/out")" -le 1 ] &&
  grep -Eq '^[0-9]+ case\(s\) hit a deadline: 0 case x host unit\(s\) the case deadline \([0-9.]+ s\), [1-9][0-9]* the run deadline' "$work/out" ||
  fail "run deadline (rc $rc)"

rc=0
"$conf" run --adapter "bash $zoo/two_lines.sh $adapter" --host gemini-0.61 --filter OUT- \
  --jobs 1 --max-failures 1 >"$work/out" 2>&1 || rc=$?
# The cases the stop kept from starting are counted in the summary, not listed one per line.
[ "$rc" = 1 ] && ! grep -q '^NOT-RUN: ' "$work/out" &&
  grep -Eq '^[1-9][0-9]* case\(s\) not run: --max-failures 1 reached' "$work/out" ||
  fail "--max-failures (rc $rc)"
# --verbose lists them.
rc=0
"$conf" run --adapter "bash $zoo/two_lines.sh $adapter" --host gemini-0.61 --filter OUT- \
  --jobs 1 --max-failures 1 --verbose >"$work/out" 2>&1 || rc=$?
[ "$rc" = 1 ] && grep -q '^NOT-RUN: ' "$work/out" || fail "--max-failures --verbose (rc $rc)"

rc=0
start=$(date +%s%N)
"$conf" run --adapter "bash $zoo/child_holds_stdout.sh $adapter" --host gemini-0.61 \
  --filter EXIT-0005 >"$work/out" 2>&1 || rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
[ "$rc" = 1 ] && grep -q '^FAIL: EXIT-0005' "$work/out" && [ "$ms" -lt 3500 ] ||
  fail "held pipes: rc $rc after $ms ms (the child holds them 4 s)"

[ "$fails" = 0 ] && echo "deadlines: all checks passed"
exit $((fails > 0))
