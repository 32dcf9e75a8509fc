#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: floods stdout with 4 MiB after the reply
# Breaks: OUT (one JSON object line and nothing else)
# Catches: OUT-0001 OUT-0002
adapter="$1"; shift
"$adapter" "$@"; head -c 4194304 /dev/zero | tr '\0' 'x'
