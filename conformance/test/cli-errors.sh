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

expect no-subcommand 2 '^conformance: .*subcommand' "$conf"
expect unknown-subcommand 2 '^conformance: ' "$conf" bogus
expect missing-adapter 2 '^conformance: --adapter is required' "$conf" run
expect unknown-host 2 "^conformance: unknown --host 'nope'" "$conf" run --adapter /bin/true --host nope
expect unknown-host-in-list 2 "^conformance: unknown --host 'nope'" \
  "$conf" run --adapter /bin/true --host gemini-0.61,nope
expect unknown-format 2 '^conformance: .*--format' "$conf" run --adapter /bin/true --format yaml
expect cases-after-subcommand 2 "^conformance: cases directory not found: $work/none" \
  "$conf" run --cases "$work/none" --adapter /bin/true
expect cases-before-subcommand 2 "^conformance: cases directory not found: $work/none" \
  "$conf" --cases "$work/none" run --adapter /bin/true
expect bad-case-file 2 "^conformance: .*BAD-0001.case.json: " \
  "$conf" run --cases "$work/cases" --adapter /bin/true
expect no-such-id 2 '^conformance: no case with id NOPE-1' "$conf" show NOPE-1
expect unknown-filter 2 '^conformance: ' "$conf" run --adapter /bin/true --filter NOPE-
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
