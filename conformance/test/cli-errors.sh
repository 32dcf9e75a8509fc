#!/usr/bin/env bash
# The `conformance` command line: a bad invocation gets one line on stderr naming the problem,
# prefixed "conformance: ", and exit 2; app options (--cases, --fixtures) work before and after
# the subcommand (the campaign's reproducer hint prints `conformance run --cases DIR`).
# Usage: cli-errors.sh CONFORMANCE
set -u
conf="$1"
work=$(mktemp -d "${TMPDIR:-/tmp}/pinta-conf-cli.XXXXXX")
trap 'rm -rf "$work"' EXIT
fails=0
# expect NAME WANT-RC WANT-STDERR-REGEX CMD...: exactly one stderr line matching the regex.
expect() {
  local name=$1 want_rc=$2 want=$3 rc=0 lines
  shift 3
  "$@" >"$work/out" 2>"$work/err" </dev/null || rc=$?
  lines=$(wc -l <"$work/err")
  if [ "$rc" != "$want_rc" ] || [ "$lines" != 1 ] || ! grep -Eq -- "$want" "$work/err"; then
    echo "FAIL $name: rc $rc (want $want_rc), $lines stderr line(s) (want 1), stderr:"
    sed 's/^/    /' "$work/err"
    fails=$((fails + 1))
  else
    echo "ok   $name"
  fi
}
mkdir -p "$work/cases/BAD" "$work/cases/EXIT"
echo '{' >"$work/cases/BAD/BAD-0001.case.json"
cp "$(dirname "${BASH_SOURCE[0]}")/../cases/EXIT/EXIT-0001.case.json" "$work/cases/EXIT/"
mkdir -p "$work/cases-exit/EXIT"
cp "$(dirname "${BASH_SOURCE[0]}")/../cases/EXIT/EXIT-0001.case.json" "$work/cases-exit/EXIT/"

expect no-subcommand 2 '^conformance: .*subcommand' "$conf"
# The unknown word or option is named (before: "A subcommand is required", "--adapter is required").
expect unknown-subcommand 2 '^conformance: unknown subcommand bogus ' "$conf" bogus
expect unknown-subcommand-with-option 2 '^conformance: unknown subcommand bogus ' "$conf" bogus --x
expect unknown-option 2 '^conformance: unknown option --bogus$' "$conf" run --bogus
expect unknown-option-with-adapter 2 '^conformance: unknown option --bogus$' \
  "$conf" run --adapter /bin/true --bogus
expect unknown-option-before-subcommand 2 '^conformance: unknown option --bogus$' "$conf" --bogus run
expect missing-adapter 2 '^conformance: --adapter is required' "$conf" run
expect show-without-id 2 '^conformance: show needs a case id' "$conf" show
expect unknown-host 2 "^conformance: unknown --host 'nope'" "$conf" run --adapter /bin/true --host nope
expect unknown-host-in-list 2 "^conformance: unknown --host 'nope'" \
  "$conf" run --adapter /bin/true --host gemini-0.61,nope
# gemini@VERSION: the release's version profile (the one mapping, profile_for_version); a release
# outside the profiled range is an error naming the range.
expect gemini-version-out-of-range 2 "^conformance: Gemini CLI 9\.9\.9 is outside the profiled range 0\.26\.0 " \
  "$conf" run --adapter /bin/true --host gemini@9.9.9
expect gemini-version-not-a-version 2 "^conformance: " "$conf" run --adapter /bin/true --host gemini@latest
# 0.38.2 is covered by gemini-0.37 (applies through 0.38): the run grades under that host.
"$conf" run --adapter /bin/true --cases "$work/cases-exit" --host gemini@0.38.2 \
  --report "$work/rep" >"$work/out" 2>&1 </dev/null
if grep -q '"gemini-0.37"' "$work/rep/report.json" && ! grep -q '"gemini-0.61"' "$work/rep/report.json"; then echo "ok   gemini-version-maps"; else
  echo "FAIL gemini-version-maps: report.json does not grade under gemini-0.37 alone:"
  sed 's/^/    /' "$work/out"; fails=$((fails + 1)); fi
# A family's name selects every graded host of that family (report order), and only those.
"$conf" run --adapter /bin/true --cases "$work/cases-exit" --host gemini \
  --report "$work/rep-fam" >"$work/out" 2>&1 </dev/null
fam_hosts=$(python3 -c 'import json,sys; print(",".join(json.load(open(sys.argv[1]))["hosts"]))' \
  "$work/rep-fam/report.json" 2>/dev/null)
# The Gemini columns as the help lists them (the one host list), in report order.
want_hosts=$("$conf" run --help 2>/dev/null | grep -o 'gemini-[0-9][0-9.]*' | awk '!seen[$0]++' | paste -sd,)
if [ -n "$want_hosts" ] && [ "$fam_hosts" = "$want_hosts" ]; then echo "ok   host-family ($fam_hosts)"; else
  echo "FAIL host-family: want '$want_hosts', got '$fam_hosts'"; sed 's/^/    /' "$work/out"
  fails=$((fails + 1)); fi
# With --profile protocol a family grades its newest host.
(cd "$work" && "$conf" run --profile protocol --hook true --host deel --report "$work/rep-proto") \
  >"$work/out" 2>&1 </dev/null
proto_hosts=$(python3 -c 'import json,sys; print(",".join(json.load(open(sys.argv[1]))["hosts"]))' \
  "$work/rep-proto/report.json" 2>/dev/null)
if [ "$proto_hosts" = deel-1.17 ]; then echo "ok   host-family-protocol"; else
  echo "FAIL host-family-protocol: want deel-1.17, got '$proto_hosts'"; sed 's/^/    /' "$work/out"
  fails=$((fails + 1)); fi
# --payload: a file that cannot be an author's payload is one line naming it; a good one is run.
echo '{"tool_name": ' >"$work/bad-payload.json"
expect payload-not-json 2 "^conformance: --payload $work/bad-payload.json: not JSON " \
  "$conf" run --profile protocol --hook true --host claude-code-2.1 --payload "$work/bad-payload.json"
expect payload-missing 2 "^conformance: --payload $work/none.json: cannot read" \
  "$conf" run --profile protocol --hook true --host claude-code-2.1 --payload "$work/none.json"
expect payload-without-protocol 2 '^conformance: .*--payload,.* belong to --profile protocol' \
  "$conf" run --adapter /bin/true --payload "$work/bad-payload.json"
echo '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf ~ # mine"}}' \
  >"$work/mine.json"
"$conf" run --profile protocol --host claude-code-2.1 --event PreToolUse \
  --hook 'grep -q "# mine" && { echo "mine: no" >&2; exit 2; }; exit 0' --payload "$work/mine.json" \
  --report "$work/rep-payload" >"$work/out" 2>&1 </dev/null
if python3 - "$work/rep-payload/report.json" "$work/mine.json" <<'PY'; then echo "ok   payload-run"; else
import json, sys
runs = json.load(open(sys.argv[1]))["cases"][0]["hosts"][0]["runs"]
mine = [r for r in runs if r.get("payload_file") == sys.argv[2]]
assert len(mine) == 1 and mine[0]["call"] == "--payload " + sys.argv[2], runs
assert mine[0]["payload"] == json.load(open(sys.argv[2])) and mine[0]["effect"] == "blocking_error", mine
assert all(r.get("effect") != "blocking_error" for r in runs if r is not mine[0])
PY
  echo "FAIL payload-run"; sed 's/^/    /' "$work/out"; fails=$((fails + 1)); fi
expect host-family-unknown-in-list 2 "^conformance: unknown --host 'geminy' .*a family: gemini\|" \
  "$conf" run --adapter /bin/true --host deel,geminy
expect unknown-format 2 '^conformance: .*--format' "$conf" run --adapter /bin/true --format yaml
expect cases-after-subcommand 2 "^conformance: cases directory not found: $work/none" \
  "$conf" run --cases "$work/none" --adapter /bin/true
expect cases-before-subcommand 2 "^conformance: cases directory not found: $work/none" \
  "$conf" --cases "$work/none" run --adapter /bin/true
expect bad-case-file 2 "^conformance: .*BAD-0001.case.json: " \
  "$conf" run --cases "$work/cases" --adapter /bin/true
expect no-such-id 2 '^conformance: no case with id NOPE-1' "$conf" show NOPE-1
expect unknown-filter 2 '^conformance: ' "$conf" run --adapter /bin/true --filter NOPE-
# A --host the selected cases never run under selects nothing (OUT-0001 is a JSON-line case).
expect host-selects-nothing 2 "^conformance: no case of --filter 'OUT-0001' runs under --host deel-1.17" \
  "$conf" run --adapter /bin/true --filter OUT-0001 --host deel-1.17

# An adapter that cannot start: one line naming it, exit 2, before any case runs (before: every
# case ran and failed the same way, ~30 s and 126 failures for a missing file).
printf '#!/bin/sh\necho {}\n' >"$work/noexec" && chmod 644 "$work/noexec"
start=$(date +%s%N)
expect adapter-missing 2 "^conformance: --adapter '\./does-not-exist': \./does-not-exist is not found$" \
  "$conf" run --adapter ./does-not-exist --host all
ms=$((($(date +%s%N) - start) / 1000000))
# Generous slack for a loaded machine; a run of the cases takes tens of seconds.
if [ "$ms" -lt 5000 ]; then echo "ok   adapter-missing-fast ($ms ms)"; else
  echo "FAIL adapter-missing-fast: $ms ms"; fails=$((fails + 1)); fi
expect adapter-missing-with-args 2 "is not found$" "$conf" run --adapter "$work/nope --flag x"
expect adapter-not-executable 2 "^conformance: --adapter '$work/noexec': $work/noexec is not executable" \
  "$conf" run --adapter "$work/noexec"
expect adapter-directory 2 "is a directory, not a program$" "$conf" run --adapter "$work"
expect adapter-not-on-path 2 "pinta-no-such-program-xyz is not found on \\\$PATH$" \
  "$conf" run --adapter "pinta-no-such-program-xyz --x"
expect adapter-empty 2 "^conformance: --adapter is empty" "$conf" run --adapter "  "

# --help on the program and each subcommand: usage on stdout, nothing on stderr, exit 0.
for args in "--help" "run --help" "list --help" "show --help" "docs --help" "-h" "run -h"; do
  rc=0
  # shellcheck disable=SC2086
  "$conf" $args >"$work/out" 2>"$work/err" </dev/null || rc=$?
  if [ "$rc" = 0 ] && [ ! -s "$work/err" ] && grep -q 'Usage:' "$work/out"; then
    echo "ok   help: $args"
  else
    echo "FAIL help: $args: rc $rc, stderr '$(head -c 200 "$work/err")'"; fails=$((fails + 1))
  fi
done
grep -q -- '--max-framing-failures' <("$conf" run --help) ||
  { echo "FAIL run --help does not document --max-framing-failures"; fails=$((fails + 1)); }
if "$conf" fuzz --help >/dev/null 2>&1; then
  expect fuzz-bad-out 2 '^conformance: cannot create --out /proc/' \
    "$conf" fuzz --adapter /bin/true --host gemini --runs 1 --out /proc/pinta-nope
  expect fuzz-bad-fixtures 2 "^conformance: no fixtures for gemini under $work/none" \
    "$conf" fuzz --adapter /bin/true --host gemini --runs 1 --fixtures "$work/none" --out "$work/o"
else
  echo "SKIPPED fuzz checks: this conformance was built without the fake servers (no \`fuzz\`)"
fi
# The good case dir after the subcommand is really used: one case, graded.
rm -rf "$work/cases/BAD"
"$conf" run --cases "$work/cases" --adapter /bin/false --host gemini-0.61 >"$work/out" 2>&1
# /bin/false exits 1, so the one case fails: the summary must count exactly that one.
if grep -Eq '^0 passed, 1 failed, 0 skipped' "$work/out"; then
  echo "ok   cases-dir-used"
else
  echo "FAIL cases-dir-used: the run did not grade exactly the one case:"; tail -3 "$work/out"
  fails=$((fails + 1))
fi
[ "$fails" = 0 ]
