#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: kills itself with SIGKILL after answering
# Breaks: EXIT (not killed by a signal)
adapter="$1"; shift
"$adapter" "$@"; kill -9 $$
