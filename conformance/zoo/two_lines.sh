#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: a second JSON line after the reply
# Breaks: OUT (one JSON object line)
adapter="$1"; shift
"$adapter" "$@"; echo "{}"
