#!/usr/bin/env bash
# Every program the build puts in its bin/ directory (the installed ones, the developer tools,
# the fuzz replays, whatever is added later) answers, with stdin empty:
#  --version  one line "<name> X.Y.Z (<revision>)" on stdout, nothing on stderr, exit 0
#             (revision: 7-40 hex digits, "-dirty" with local changes, or "unknown");
#  --help     its usage on stdout (at most 40 lines, one screen), nothing on stderr, exit 0, and
#             not a program's other output: no line starting with '{' (a hook's or a tool's JSON).
# The directory is listed, not a list of names, so a new program without them fails here.
# Usage: version.sh BIN-DIR PROGRAM...   (PROGRAMs: names that must be there: the installed ones)
set -u
dir="$1"; shift
fail=0
err=$(mktemp); trap 'rm -f "$err"' EXIT
for must in "$@"; do
  [ -x "$dir/$must" ] || { echo "FAIL: $must is not in $dir"; fail=1; }
done
n=0
for prog in "$dir"/*; do
  [ -f "$prog" ] && [ -x "$prog" ] || continue
  name=$(basename "$prog")
  n=$((n + 1))
  out=$(timeout 10 "$prog" --version </dev/null 2>"$err"); rc=$?
  if [ "$rc" != 0 ] || [ -s "$err" ] ||
     ! printf '%s\n' "$out" | grep -Eqx "$name [0-9]+\.[0-9]+\.[0-9]+ \(([0-9a-f]{7,40}(-dirty)?|unknown)\)" ||
     [ "$(printf '%s\n' "$out" | wc -l)" != 1 ]; then
    echo "FAIL: $name --version: exit $rc, stdout '$(printf '%s' "$out" | head -c 200)', stderr '$(head -c 200 "$err")'"
    fail=1
  fi
  out=$(timeout 10 "$prog" --help </dev/null 2>"$err"); rc=$?
  lines=$(printf '%s\n' "$out" | wc -l)
  if [ "$rc" != 0 ] || [ -s "$err" ] || [ -z "$out" ] || [ "$lines" -gt 40 ] ||
     printf '%s\n' "$out" | grep -q '^{'; then
    echo "FAIL: $name --help: exit $rc, $lines line(s) on stdout '$(printf '%s' "$out" | head -c 200)', stderr '$(head -c 200 "$err")'"
    fail=1
  fi
done
[ "$n" -gt 0 ] || { echo "FAIL: no program in $dir"; fail=1; }
[ "$fail" = 0 ] && echo "version.sh: $n programs in $dir answer --help and --version"
exit "$fail"
