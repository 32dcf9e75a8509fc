#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: writes a second debug-log line per invocation.
# Breaks: ENV-0006 (one debug line per invocation)
# Catches: ENV-0006
adapter="$1"; shift
"$adapter" "$@"; rc=$?
d="${GEMINI_PLUGIN_DATA:-$HOME/.gemini/pinta-gemini-data}"
[ -f "$d/invocations.jsonl" ] && tail -n 1 "$d/invocations.jsonl" >> "$d/invocations.jsonl"
exit $rc
