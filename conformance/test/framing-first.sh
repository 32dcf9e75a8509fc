#!/usr/bin/env bash
# A broken reply gets its verdict early and in one line:
#  - the framing areas (OUT, EXIT, FMT) run first: the first case reported is one of theirs;
#  - after --max-framing-failures (default 8) framing units (case x host) failed with one cause,
#    the run stops: the rest are NOT-RUN, the run still fails, and the summary says why;
#  - when most failures share a cause, one line names it and the case to read first, in the text
#    output, in report.json (common_cause) and in --format github (a ::notice and the job summary);
#  - --max-framing-failures 0 runs every case.
# Before: two_lines.sh ran every case (55 s, 78 cases DEADLINE, OUT-0001 never ran).
# Our adapter's own verdict is unchanged: conformance_adapter_strict runs it with the default.
# Usage: framing-first.sh CONFORMANCE ADAPTER ZOO-DIR
set -u
conf="$1" adapter="$2" zoo="$3"
work=$(mktemp -d "${TMPDIR:-/tmp}/pinta-conf-framing.XXXXXX")
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL $1"; sed 's/^/    /' "$work/out" | tail -12; fails=$((fails + 1)); }

rc=0
start=$(date +%s)
GITHUB_STEP_SUMMARY="$work/summary.md" "$conf" run --adapter "bash $zoo/two_lines.sh $adapter" \
  --host all --report "$work/rep" --format github >"$work/out" 2>&1 || rc=$?
secs=$(($(date +%s) - start))
echo "two_lines.sh, --host all: exit $rc after $secs s"
[ "$rc" = 1 ] || fail "exit $rc, expected 1"
# The first case that ran (cases left NOT-RUN by the stop are reported as they are skipped).
first=$(grep -Em1 '^(PASS|FAIL|XFAIL|XPASS|NON-STRICT|UNSUPPORTED|UNRESOLVED|DEADLINE): ' "$work/out")
case "$first" in *": OUT-"* | *": EXIT-"* | *": FMT-"*) ;; *) fail "first case reported is not a framing case: $first" ;; esac
grep -q '^FAIL: OUT-0001 ' "$work/out" || fail "OUT-0001 did not run and fail"
grep -q '^DEADLINE: ' "$work/out" && fail "cases hit a deadline: the framing stop came too late"
grep -Eq '^[1-9][0-9]* case\(s\) not run: 8 framing units \(case x host; OUT, EXIT, FMT run first\) failed with one cause \(a second line on stdout\); --max-framing-failures 0 or --complete runs every case$' "$work/out" ||
  fail "no not-run line naming the framing stop"
line=$(grep -E '^[0-9]+ failures; [0-9]+ share: a second line on stdout — read OUT-0001 first$' "$work/out")
[ -n "$line" ] || fail "no common-cause line naming OUT-0001"
python3 - "$work/rep/report.json" "$line" <<'PY' || fail "report.json: common_cause / stopped / NOT-RUN"
import json, sys
r = json.load(open(sys.argv[1]))
cc = r["common_cause"]
assert cc["read_first"] == "OUT-0001" and cc["cause"] == "a second line on stdout", cc
assert cc["line"] == sys.argv[2], (cc["line"], sys.argv[2])
assert cc["failed"] == r["failed"] and 2 * cc["cases"] > cc["failed"], cc
assert r["stopped"].startswith("8 framing units"), r["stopped"]
states = {c["id"]: c["state"] for c in r["cases"]}
assert r["not_run"] == sum(s == "NOT-RUN" for s in states.values()) > 0, r["not_run"]
assert all(c["cause"] == "a second line on stdout" for c in r["cases"] if c["id"].startswith("OUT-") and c["state"] == "FAIL")
PY
grep -q '^::notice title=conformance%3A one cause::[0-9]* failures; [0-9]* share: a second line on stdout — read OUT-0001 first$' "$work/out" ||
  fail "no ::notice with the common cause"
grep -qF 'share\: a second line on stdout — read OUT\-0001 first**' "$work/summary.md" ||
  { fail "the job summary does not name the common cause"; grep -n share "$work/summary.md"; }

# The stop can be set lower, and turned off.
rc=0
"$conf" run --adapter "bash $zoo/two_lines.sh $adapter" --host gemini-0.61 --filter OUT- --jobs 1 \
  --max-framing-failures 2 >"$work/out" 2>&1 || rc=$?
[ "$rc" = 1 ] && grep -Eq '^[1-9][0-9]* case\(s\) not run: 2 framing units' "$work/out" ||
  fail "--max-framing-failures 2 (rc $rc)"
rc=0
"$conf" run --adapter "bash $zoo/two_lines.sh $adapter" --host gemini-0.61 --filter OUT- --jobs 1 \
  --max-framing-failures 0 >"$work/out" 2>&1 || rc=$?
[ "$rc" = 1 ] && ! grep -q 'NOT-RUN\|not run' "$work/out" || fail "--max-framing-failures 0 (rc $rc)"

[ "$fails" = 0 ] && echo "framing-first: all checks passed"
exit $((fails > 0))
