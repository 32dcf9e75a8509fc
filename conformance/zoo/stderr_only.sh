#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: the reply goes to stderr, stdout stays empty
# Breaks: OUT, EXIT-2 (stderr empty)
# Catches: OUT-0001
adapter="$1"; shift
"$adapter" "$@" 1>&2
