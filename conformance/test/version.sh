#!/usr/bin/env bash
# Every program of the project answers --version with one line "<name> X.Y.Z (<revision>)" on
# stdout and exit 0 (revision: 7-40 hex digits, "-dirty" with local changes, or "unknown").
set -u
fail=0
for prog in "$@"; do
  name=$(basename "$prog")
  out=$("$prog" --version 2>/tmp/version.err.$$); rc=$?
  if [ "$rc" != 0 ] || [ -s /tmp/version.err.$$ ] ||
     ! printf '%s\n' "$out" | grep -Eqx "$name [0-9]+\.[0-9]+\.[0-9]+ \(([0-9a-f]{7,40}(-dirty)?|unknown)\)" ||
     [ "$(printf '%s\n' "$out" | wc -l)" != 1 ]; then
    echo "FAIL: $name --version: exit $rc, stdout '$out', stderr '$(cat /tmp/version.err.$$)'"
    fail=1
  fi
done
rm -f /tmp/version.err.$$
exit "$fail"
