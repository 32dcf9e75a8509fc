#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: reads stdin to EOF before answering
# Breaks: INPUT-0007 (stdin never closed)
adapter="$1"; shift
input=$(cat); printf "%s" "$input" | "$adapter" "$@"
