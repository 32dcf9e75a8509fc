#!/usr/bin/env bash
# progress.sh CAMPAIGN ADAPTER: pinta-fuzz-campaign's stderr conventions.
#   - stderr not a TTY: plain progress lines "pinta-fuzz-campaign: N/M runs, ..." (no escapes);
#   - --quiet: nothing on stderr, the JSON summary still on stdout;
#   - stderr a TTY (script(1) gives it a pty): one line redrawn with \r, ended by one newline.
set -u
campaign=$1
adapter=$2
tmp=$(mktemp -d /tmp/pinta-campaign-progress.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
say() { echo "FAIL: $*"; fail=1; }
common=(--adapter "$adapter" --host gemini --runs 20 --seed 11 --jobs 1 --no-misbehave)

"$campaign" "${common[@]}" --out "$tmp/a" --progress-interval-ms 1 >"$tmp/a.out" 2>"$tmp/a.err"
rc=$?
[ "$rc" = 0 ] || say "campaign exit $rc: $(head -c 300 "$tmp/a.err")"
grep -q '"runs":20' "$tmp/a.out" || say "no summary on stdout: $(head -c 300 "$tmp/a.out")"
grep -Eq '^pinta-fuzz-campaign: [0-9]+/20 runs, [0-9]+ runs/s, 0 findings, [0-9]+ s$' "$tmp/a.err" ||
  say "no plain progress line on a non-TTY stderr: '$(head -c 300 "$tmp/a.err")'"
grep -q $'\r\|\033' "$tmp/a.err" && say "escape or carriage return on a non-TTY stderr"

"$campaign" "${common[@]}" --out "$tmp/q" --progress-interval-ms 1 --quiet >"$tmp/q.out" 2>"$tmp/q.err"
rc=$?
[ "$rc" = 0 ] && grep -q '"runs":20' "$tmp/q.out" || say "--quiet: exit $rc, stdout $(head -c 300 "$tmp/q.out")"
[ -s "$tmp/q.err" ] && say "--quiet printed on stderr: '$(head -c 300 "$tmp/q.err")'"

if command -v script >/dev/null; then
  # script(1) runs the command on a pty (stdout and stderr both); the transcript is what it saw.
  printf -v cmd '%q ' "$campaign" "${common[@]}" --out "$tmp/t"
  script -qec "$cmd" "$tmp/tty.log" >/dev/null 2>&1 </dev/null
  grep -q $'\r\\[#' "$tmp/tty.log" || say "no redrawn progress bar on a TTY: '$(head -c 300 "$tmp/tty.log" | cat -v)'"
  grep -q '^pinta-fuzz-campaign: ' "$tmp/tty.log" && say "plain progress lines on a TTY"
  grep -q '20/20' "$tmp/tty.log" || say "the TTY progress never shows 20/20: '$(head -c 300 "$tmp/tty.log" | cat -v)'"
else
  echo "note: script(1) is not installed; the TTY progress line is not checked"
fi
exit "$fail"
