#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: a deny exits 1 instead of 2 under deel-local-cli
# Breaks: DEEL-0002 (exit 2 is the block; exit 1 is a broken hook, and reads as one)
# Catches: DEEL-0002
adapter="$1"; shift
"$adapter" "$@"; rc=$?
[ "$rc" = 2 ] && exit 1; exit "$rc"
