#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: {} on Antigravity PreToolUse (read as deny)
# Breaks: FMT-0002
# Catches: FMT-0002
adapter="$1"; shift
case " $* " in *" PreToolUse "*) echo "{}"; exit 0;; esac; exec "$adapter" "$@"
