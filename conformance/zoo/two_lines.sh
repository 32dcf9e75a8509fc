#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: a second JSON line after the reply
# Breaks: OUT (one JSON object line)
# Catches: OUT-0001 OUT-0002
adapter="$1"; shift
"$adapter" "$@"; echo "{}"
