#!/usr/bin/env bash
# A family descriptor without its reply forms and host source must not compile; with them it must.
# Usage: required_fields_test.sh CXX INCLUDE_DIR...
set -u
cxx=$1; shift
src="$(dirname "$0")/required_fields.cc"
inc=(); for d in "$@"; do inc+=(-I "$d"); done
if ! "$cxx" -std=c++20 -fsyntax-only "${inc[@]}" -DPROBE_EVERY_FIELD "$src"; then
  echo "FAIL: a descriptor with every field does not compile"; exit 1
fi
if out=$("$cxx" -std=c++20 -fsyntax-only "${inc[@]}" "$src" 2>&1); then
  echo "FAIL: a descriptor without its reply forms and host source compiled"; exit 1
fi
if ! grep -q "Required" <<<"$out"; then
  echo "FAIL: the compile error does not name the Required field:"; echo "$out" | head -5; exit 1
fi
echo "ok: every field compiles; leaving out a Required field is a compile error"
