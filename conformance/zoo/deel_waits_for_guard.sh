#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: waits 3 s before answering deel-local-cli's PreToolUse
# Breaks: DEEL-0007 (the tool call waits on the hook; past the host timeout it is blocked)
# Catches: DEEL-0007
adapter="$1"; shift
case " $* " in *" deel "*" PreToolUse "*) sleep 3;; esac; exec "$adapter" "$@"
