#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: adds decision allow on every Antigravity event
# Breaks: FMT-0003..0006 (no decision key outside PreToolUse)
# Catches: FMT-0003 FMT-0004 FMT-0005 FMT-0006
adapter="$1"; shift
case " $* " in *" gemini "*) exec "$adapter" "$@";; esac; echo "{\"decision\":\"allow\"}"
