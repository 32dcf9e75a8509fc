#!/usr/bin/env bash
# The `hostemu` command line: `--help` on the program and on every subcommand (found by walking
# the Subcommands: lists of the help itself) prints usage on stdout, nothing on stderr, exit 0; a
# bad command line is one "hostemu: ..." line on stderr naming the unknown word or option, exit 2.
# Before: `hostemu frob` said "A subcommand is required" and `hostemu gemini run --bogus` named a
# missing required option instead of --bogus.
# Usage: hostemu-cli.sh HOSTEMU
set -u
he="$1"
work=$(mktemp -d "${TMPDIR:-/tmp}/pinta-hostemu-cli.XXXXXX")
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# The subcommand names listed under "Subcommands:" in a help text on stdin.
subcommands() { awk '/^Subcommands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^[^ ]/ { on = 0 }'; }

checked=0
walk() {  # walk WORDS...: check `hostemu WORDS --help`, then each listed subcommand's
  local rc=0
  "$he" "$@" --help >"$work/out" 2>"$work/err" </dev/null || rc=$?
  if [ "$rc" != 0 ] || [ -s "$work/err" ] || ! grep -q 'Usage:' "$work/out"; then
    fail "hostemu $* --help: rc $rc, stderr '$(head -c 300 "$work/err")'"
    return
  fi
  checked=$((checked + 1))
  local sub
  for sub in $(subcommands <"$work/out"); do walk "$@" "$sub"; done
}
walk
# The program and at least one level of subcommands under a host were walked.
[ "$checked" -ge 10 ] || fail "only $checked help texts found (the walk did not descend)"
echo "help: $checked help texts, each exit 0 on stdout"

# expect NAME WANT-STDERR-REGEX ARGS...: exit 2, nothing on stdout, one stderr line matching.
expect() {
  local name=$1 want=$2 rc=0
  shift 2
  "$he" "$@" >"$work/out" 2>"$work/err" </dev/null || rc=$?
  if [ "$rc" != 2 ] || [ "$(wc -l <"$work/err")" != 1 ] || [ -s "$work/out" ] ||
     ! grep -Eq -- "$want" "$work/err"; then
    fail "$name: rc $rc (want 2), stderr:"; sed 's/^/    /' "$work/err"
  else
    echo "ok   $name"
  fi
}
expect unknown-subcommand '^hostemu: unknown subcommand frob( |$)' frob
expect unknown-subcommand-with-option '^hostemu: unknown subcommand frob( |$)' frob --x
expect unknown-nested-subcommand '^hostemu: unknown subcommand frob for hostemu gemini' gemini frob
expect unknown-option '^hostemu: unknown option --bogus for hostemu gemini run-hook' gemini run-hook --bogus
expect unknown-top-option '^hostemu: unknown option --bogus' --bogus
expect no-subcommand '^hostemu: a subcommand is required \(gemini, ' 
expect nested-no-subcommand '^hostemu: `hostemu gemini` needs a subcommand \(run-hook, ' gemini
# The Gemini version -> profile mapping on the command line (docs/gemini-versions.md): a release
# outside the profiled range is an error naming the range, never a silent pick; a profile name
# that does not exist lists the profiles. All of these stop before anything is installed or run.
echo '{"model_turns":[]}' >"$work/s.json"
expect out-of-range-drift 'outside the profiled range 0\.26\.0 \.\. 0\.61\.x' drift --host gemini --version 0.62.0
expect out-of-range-profiles 'outside the profiled range' gemini profiles --version 9.9.9
expect out-of-range-session 'outside the profiled range' gemini session --home "$work" --workspace "$work" --script "$work/s.json" --version 0.25.0
expect unknown-profile-name "no Gemini CLI profile named 'gemini-0.48' \(profiles: .*gemini-0.61" gemini session --home "$work" --workspace "$work" --script "$work/s.json" --profile gemini-0.48
expect session-profile-and-version 'exclusive' gemini session --home "$work" --workspace "$work" --script "$work/s.json" --profile gemini-0.61 --version 0.61.0
# drift --only: an id, or its unique number part; no match or two matches is one line, exit 2,
# before anything is installed.
mkdir -p "$work/scen"
echo '{"id":"s01-a","model_turns":[]}' >"$work/scen/s01-a.json"
echo '{"id":"s01-b","model_turns":[]}' >"$work/scen/s01-b.json"
expect drift-only-unknown "no scenario with id s99 in $work/scen" drift --host gemini --version 0.61.0 --scenarios "$work/scen" --only s99
expect drift-only-ambiguous "--only s01 names 2 scenarios in $work/scen; give the whole id" drift --host gemini --version 0.61.0 --scenarios "$work/scen" --only s01
for pair in 0.33.2=gemini-0.31 0.36.0=gemini-0.36 0.37.2=gemini-0.37 0.38.2=gemini-0.38 0.39.1=gemini-0.40 0.61.0=gemini-0.61; do
  got=$("$he" gemini profiles --version "${pair%%=*}" 2>&1)
  if [ "$got" = "${pair#*=}" ]; then echo "ok   profile-of ${pair%%=*}"; else fail "profile-of ${pair%%=*}: '$got'"; fi
done

[ "$fails" = 0 ] && echo "hostemu-cli: all checks passed"
exit $((fails > 0))
