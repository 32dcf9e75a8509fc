#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: writes the raw payload into the data dir
# Breaks: REDACT, ENV-0005
# Catches: REDACT-0001 REDACT-0007 ENV-0005
adapter="$1"; shift
input=$(timeout 1 head -c 1000000); mkdir -p "$HOME/.gemini/pinta-gemini-data"; printf "%s" "$input" > "$HOME/.gemini/pinta-gemini-data/leak.json"; printf "%s" "$input" | "$adapter" "$@"
