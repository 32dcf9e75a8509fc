#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: sleeps 300 ms before answering
# Breaks: PERF (SHOULD, --strict)
# Catches: PERF-0001
# Strict: yes
adapter="$1"; shift
sleep 0.3; exec "$adapter" "$@"
