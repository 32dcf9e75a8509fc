#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: a diagnostic line on stderr
# Breaks: OUT/EXIT-2 (stderr empty)
# Catches: OUT-0001 OUT-0006 INPUT-0002
adapter="$1"; shift
"$adapter" "$@"; echo "pinta: debug" >&2
