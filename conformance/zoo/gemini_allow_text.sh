#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: plain text instead of JSON on Gemini
# Breaks: OUT, FMT-0001
# Catches: FMT-0001 OUT-0001
adapter="$1"; shift
case " $* " in *" gemini "*) cat >/dev/null; echo allowed; exit 0;; esac; exec "$adapter" "$@"
