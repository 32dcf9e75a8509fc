#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: kills itself with SIGKILL after answering
# Breaks: EXIT (not killed by a signal)
# Catches: EXIT-0001
adapter="$1"; shift
"$adapter" "$@"; kill -9 $$
