#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: exit status 1 after a correct reply
# Breaks: EXIT (status 0 always)
# Catches: EXIT-0001 EXIT-0002
adapter="$1"; shift
"$adapter" "$@"; exit 1
