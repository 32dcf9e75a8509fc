#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: leaves a cache file in HOME even when nothing is configured.
# Breaks: ENV-0005, OTLP-0009 (nothing written by default)
# Catches: ENV-0005 OTLP-0009
adapter="$1"; shift
"$adapter" "$@"; rc=$?
: > "$HOME/.pinta-gemini-cache"
exit $rc
