#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: never calls the guard
# Breaks: GUARD-0001 (deny reaches the host)
# Catches: GUARD-0001 GUARD-0002 GUARD-0020 GUARD-0021 GUARD-0022
adapter="$1"; shift
unset PINTA_GUARD_ENDPOINT; export PINTA_GUARD_DISABLED=1; exec "$adapter" "$@"
