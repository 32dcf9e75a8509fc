#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: leaves its data dir and files readable by everyone.
# Breaks: ENV-0004 (private modes)
# Catches: ENV-0004
adapter="$1"; shift
"$adapter" "$@"; rc=$?
d="${GEMINI_PLUGIN_DATA:-$HOME/.gemini/pinta-gemini-data}"
[ -d "$d" ] && chmod -R go+rwX "$d"
exit $rc
