#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: a diagnostic line on stderr
# Breaks: OUT/EXIT-2 (stderr empty)
adapter="$1"; shift
"$adapter" "$@"; echo "pinta: debug" >&2
