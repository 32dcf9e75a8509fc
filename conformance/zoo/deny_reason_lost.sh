#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: replaces the guard's deny reason with a fixed word.
# Breaks: GUARD-0001 (message reaches the user), GUARD-0010, GUARD-0011 (reason precedence)
# Catches: GUARD-0001 GUARD-0010 GUARD-0011
adapter="$1"; shift
"$adapter" "$@" | sed -E 's/"reason":"[^"]*"/"reason":"denied"/g'
