#!/usr/bin/env bash
# What `conformance run` prints, and its CI format, from real runs (a few seconds):
#  - to a pipe: a plain line per case, no escape sequence at all (stdout and stderr);
#  - --quiet: the failures and the final summary only;
#  - on a terminal (a pty from script(1)): colour, one status line on stderr redrawn in place and no
#    line per passing case; NO_COLOR=1: the same without colour; TERM=dumb: neither;
#  - --format github: one ::error line per failing case, file= the case file relative to
#    $GITHUB_WORKSPACE (a file that exists), title= the id, the message on that one line; the
#    Markdown job summary appended to $GITHUB_STEP_SUMMARY, else written to the report directory.
# Usage: console-github.sh CONFORMANCE ADAPTER ZOO-DIR SOURCE-DIR
set -u
conf=$(realpath "$1") adapter=$(realpath "$2") zoo=$(realpath "$3") src=$(realpath "$4")
work=$(mktemp -d "${TMPDIR:-/tmp}/pinta-console.XXXXXX")
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
broken="sh $zoo/two_lines.sh $adapter"
esc=$'\x1b'

# A pipe: a line per case, no escapes.
rc=0
env -u NO_COLOR "$conf" run --adapter "$adapter" --host gemini-0.61 --filter OUT-000 \
  >"$work/out" 2>"$work/err" || rc=$?
[ "$rc" = 0 ] || fail "our adapter on OUT-000: exit $rc"
grep -Eq '^PASS: OUT-0001 \([0-9]+ of [0-9]+\)$' "$work/out" || fail "no 'PASS: OUT-0001 (K of N)' line on a pipe"
grep -q "$esc" "$work/out" "$work/err" && fail "escape sequences written to a pipe"

# --quiet: failures and the summary only.
rc=0
"$conf" run --adapter "$broken" --host gemini-0.61 --filter OUT-000 --quiet \
  >"$work/out" 2>"$work/err" || rc=$?
[ "$rc" = 1 ] || fail "--quiet with a broken adapter: exit $rc, expected 1"
grep -q '^PASS: ' "$work/out" && fail "--quiet printed passing cases"
grep -q '^FAIL: OUT-0001 ' "$work/out" || fail "--quiet did not print the failure"
grep -Eq '^[0-9]+ passed, [1-9][0-9]* failed, ' "$work/out" || fail "--quiet: no final summary"

# A flood (4 MiB on stdout): the failure block shows about 600 characters of it and the size.
"$conf" run --adapter "sh $zoo/floods_output.sh $adapter" --host gemini-0.61 --filter OUT-0001 \
  >"$work/out" 2>&1
longest=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$work/out")
[ "$longest" -lt 1000 ] || fail "a failure block line of $longest characters for a flooding adapter"
# (the host's capture stops at 1 MiB: "+")
grep -Eq '    stdout: .*…\([0-9]+\+ bytes\)$' "$work/out" || fail "the flood's size is not shown"

# A terminal.
if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1; then
  pty() {  # pty OUTFILE ENV... -- runs the broken adapter's run on a pty
    local out=$1; shift
    env "$@" script -qec "'$conf' run --adapter '$broken' --host gemini-0.61 --filter OUT-000" \
      /dev/null >"$out" 2>&1 </dev/null
  }
  pty "$work/tty" -u NO_COLOR TERM=xterm
  grep -q "${esc}\[1;31mFAIL${esc}\[0m: OUT-0001" "$work/tty" || fail "no red FAIL on a terminal"
  grep -q "${esc}\[Kconformance: [0-9]*/[0-9]* cases" "$work/tty" || fail "no status line on a terminal"
  grep -q 'PASS: ' "$work/tty" && fail "a line per passing case on a terminal (the status line counts them)"
  pty "$work/nocolor" NO_COLOR=1 TERM=xterm
  grep -q "${esc}\[[0-9;]*m" "$work/nocolor" && fail "colour on a terminal with NO_COLOR=1"
  grep -q 'FAIL: OUT-0001 (' "$work/nocolor" || fail "NO_COLOR: no plain FAIL line"
  grep -q "${esc}\[Kconformance: " "$work/nocolor" || fail "NO_COLOR: the status line is gone (only colour should be)"
  pty "$work/dumb" -u NO_COLOR TERM=dumb
  grep -q "$esc" "$work/dumb" && fail "escape sequences with TERM=dumb"
else
  echo "terminal checks SKIPPED: script(1) cannot allocate a pty here"
fi

# --format github, with the step summary.
rc=0
GITHUB_WORKSPACE="$src" GITHUB_STEP_SUMMARY="$work/summary.md" "$conf" run --adapter "$broken" \
  --host gemini-0.61 --filter OUT-000 --format github >"$work/gh" 2>"$work/gh.err" || rc=$?
[ "$rc" = 1 ] || fail "--format github: exit $rc, expected 1"
line=$(grep '^::error file=conformance/cases/OUT/OUT-0001.case.json,title=OUT-0001::FAIL: ' "$work/gh")
[ -n "$line" ] || { fail "no ::error line for OUT-0001 with file= and title="; grep '^::' "$work/gh" | head -3; }
[ -f "$src/conformance/cases/OUT/OUT-0001.case.json" ] || fail "file= does not name a file"
case "$line" in *"%0A"*"Rerun: "*"--filter OUT-0001"*) ;; *) fail "the message (newlines escaped, rerun command) is not on its one line: $line" ;; esac
nerr=$(grep -c '^::error ' "$work/gh")
nfailed=$(grep -c '^FAIL: ' "$work/gh")
[ "$nerr" = "$nfailed" ] || fail "$nerr ::error lines for $nfailed failing cases"
grep -q '^## Conformance: ' "$work/summary.md" || fail "no job summary in \$GITHUB_STEP_SUMMARY"
grep -q '^### Failures' "$work/summary.md" || fail "the job summary lists no failures"
grep -q '<b>OUT-0001</b> FAIL' "$work/summary.md" || fail "the job summary does not name OUT-0001"
grep -Eq "^\*\*[0-9]+ passed, $nfailed failed" "$work/summary.md" ||
  grep -Eq "\*\*[0-9]+ passed, $nfailed failed" "$work/summary.md" || fail "the job summary's totals"
# Appended, as GitHub expects (several steps may write to it).
GITHUB_WORKSPACE="$src" GITHUB_STEP_SUMMARY="$work/summary.md" "$conf" run --adapter "$broken" \
  --host gemini-0.61 --filter OUT-0001 --format github >/dev/null 2>&1
[ "$(grep -c '^## Conformance: ' "$work/summary.md")" = 2 ] || fail "the job summary was not appended"
# No $GITHUB_STEP_SUMMARY: summary.md in the report directory.
env -u GITHUB_STEP_SUMMARY "$conf" run --adapter "$broken" --host gemini-0.61 --filter OUT-0001 \
  --format github --report "$work/rep" >/dev/null 2>&1
grep -q '^### Failures' "$work/rep/summary.md" 2>/dev/null || fail "no summary.md in the report directory"
# A bad --format: one line, exit 2.
rc=0
"$conf" run --adapter "$adapter" --format yaml >"$work/out" 2>&1 || rc=$?
[ "$rc" = 2 ] && [ "$(wc -l <"$work/out")" = 1 ] && grep -q '^conformance: .*format' "$work/out" ||
  fail "--format yaml: exit $rc, $(cat "$work/out")"

[ "$fails" = 0 ] && echo "console-github: all checks passed"
exit $((fails > 0))
