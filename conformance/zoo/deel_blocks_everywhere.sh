#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under deel-local-cli every event exits 2 with a message
# Breaks: DEEL (only a guard deny on PreToolUse blocks; nothing else may speak or block)
# Catches: DEEL-0001 DEEL-0003 DEEL-0004 DEEL-0005
adapter="$1"; shift
case " $* " in *" deel "*) "$adapter" "$@" >/dev/null; echo "blocked"; exit 2;; esac
exec "$adapter" "$@"
