#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: leaves a background child holding stdout for 4 s
# Breaks: EXIT-0005 (no process holds the pipes)
# Catches: EXIT-0005
adapter="$1"; shift
"$adapter" "$@"; (sleep 4) & exit 0
