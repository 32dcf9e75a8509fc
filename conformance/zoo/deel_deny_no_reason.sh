#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: a deny under deel-local-cli exits 2 but says nothing
# Breaks: DEEL-0002 (the host quotes stdout in its block message: the user must see why)
# Catches: DEEL-0002
adapter="$1"; shift
"$adapter" "$@" >/dev/null; exit $?
