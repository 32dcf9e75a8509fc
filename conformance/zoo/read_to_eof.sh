#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: reads stdin to EOF before answering
# Breaks: INPUT-0007 (stdin never closed)
# Catches: INPUT-0007 INPUT-0010 EXIT-0004
adapter="$1"; shift
input=$(cat); printf "%s" "$input" | "$adapter" "$@"
