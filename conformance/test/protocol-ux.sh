#!/usr/bin/env bash
# What the protocol profile tells a hook author, from real runs on a project of two hooks (a few
# seconds, no network):
#  - without --host, a .claude/settings.json is read as Claude Code's (the host hostemu lint
#    reads it as), and the run says so before anything runs;
#  - every hook is named by its event, matcher and command, the passing ones too (on a pipe and
#    on a terminal); the summary counts hooks in words and rounds the time;
#  - --format github annotates a failing hook at its registration: file= the config, line= its
#    line there;
#  - the same file read as another host's: "no command hook registered" says why (what lint
#    finds, the --host that reads it), on one line, exit 2;
#  - `conformance --help` tells hook authors the one command.
# Usage: protocol-ux.sh CONFORMANCE
set -u
conf=$(realpath "$1")
work=$(mktemp -d "${TMPDIR:-/tmp}/pinta-proto-ux.XXXXXX")
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

proj="$work/my-hooks"
mkdir -p "$proj/.claude" "$proj/hooks"
printf '#!/bin/sh\nexit 0\n' >"$proj/hooks/ok.sh"
printf '#!/bin/sh\necho "crashed" >&2\nexit 3\n' >"$proj/hooks/crash.sh"
cat >"$proj/.claude/settings.json" <<'JSON'
{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {"type": "command", "command": "sh hooks/ok.sh"},
          {"type": "command", "command": "sh hooks/crash.sh"}
        ]
      }
    ]
  }
}
JSON
cd "$proj" || exit 1

# No --host, on a pipe.
rc=0
"$conf" run --profile protocol --config .claude/settings.json >"$work/out" 2>"$work/err" || rc=$?
[ "$rc" = 1 ] || fail "exit $rc, expected 1 (one hook fails): $(cat "$work/out" "$work/err" | head -5)"
grep -q '^Grading 2 hooks of .claude/settings.json: read as claude-code-[0-9.]*, the host hostemu lint reads' "$work/out" ||
  fail "the inferred host is not stated: $(head -2 "$work/out")"
grep -Eq '^PASS: HOOK-0001 PreToolUse \[Bash\]: sh hooks/ok.sh \([12] of 2\)$' "$work/out" ||
  fail "the passing hook is not listed by its command"
grep -Eq '^FAIL: HOOK-0002 PreToolUse \[Bash\]: sh hooks/crash.sh \([12] of 2\)$' "$work/out" ||
  fail "the failing hook is not named by its command"
grep -Eq '^1 hook passed, 1 failed in [0-9]+(\.[0-9])? (ms|s)$' "$work/out" ||
  fail "no summary in hooks' words: $(tail -1 "$work/out")"
grep -Eq 'xfail|xpass|[0-9]\.[0-9]{3,} s' "$work/out" && fail "case-file words or an unrounded time: $(tail -1 "$work/out")"

# On a terminal the passing hook is listed too.
if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1; then
  script -qec "'$conf' run --profile protocol --config .claude/settings.json" /dev/null \
    >"$work/tty" 2>&1 </dev/null
  grep -aq 'PASS.*HOOK-0001 PreToolUse \[Bash\]: sh hooks/ok.sh' "$work/tty" ||
    fail "a terminal does not list the passing hook: $(head -c 400 "$work/tty")"
fi

# --format github: the annotation sits at the registration's line.
line=$(grep -n 'hooks/crash.sh' .claude/settings.json | cut -d: -f1)
env -u GITHUB_STEP_SUMMARY GITHUB_WORKSPACE="$proj" "$conf" run --profile protocol \
  --config .claude/settings.json --format github --report "$work/rep" >"$work/gh" 2>&1
grep -q "^::error file=.claude/settings.json,line=$line,title=HOOK-0002 PreToolUse \[Bash\]%3A sh hooks/crash.sh::" "$work/gh" ||
  fail "no ::error at .claude/settings.json line $line: $(grep '^::' "$work/gh" | head -2)"
grep -q 'Adapter' "$work/rep/matrix.md" && fail "matrix.md calls the settings file an adapter"
grep -q '| Case | Hook | Level | State |' "$work/rep/matrix.md" || fail "matrix.md has no Hook column"

# Read as another host's file: why no hook, on one line.
rc=0
"$conf" run --profile protocol --host gemini --config .claude/settings.json >"$work/out" 2>"$work/err" || rc=$?
[ "$rc" = 2 ] || fail "a Claude Code file as Gemini settings: exit $rc, expected 2"
[ "$(wc -l <"$work/err")" = 1 ] || fail "the error is not one line: $(cat "$work/err")"
grep -q 'no command hook registered for gemini-[0-9.]*;.*unknown-event' "$work/err" ||
  fail "no reason given: $(cat "$work/err")"
grep -q 'pass --host claude-code-' "$work/err" || fail "the --host that reads it is not named: $(cat "$work/err")"

# The program's help tells hook authors.
"$conf" --help >"$work/help" 2>&1 || fail "conformance --help exited non-zero"
grep -q 'Hook authors' "$work/help" && grep -q -- '--profile protocol --config .claude/settings.json' "$work/help" &&
  grep -q -- '--profile protocol --config \.  ' "$work/help" ||
  fail "conformance --help does not tell hook authors the command"

[ "$fails" = 0 ] && echo "protocol-ux: all checks passed"
exit $((fails > 0))
