#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: hangs for 30 s before answering (and ignores SIGTERM)
# Breaks: EXIT (a prompt exit 0), OUT (a reply before the host gives up)
# Catches: EXIT-0001 OUT-0001
adapter="$1"; shift
trap '' TERM
sleep 30; exec "$adapter" "$@"
