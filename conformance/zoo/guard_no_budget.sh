#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: waits up to 5 s for the guard instead of the 50 ms budget.
# Breaks: GUARD-0004, GUARD-0013 (fail-open within the budget)
# Catches: GUARD-0004 GUARD-0013
adapter="$1"; shift
PINTA_GUARD_TIMEOUT_MS=5000; export PINTA_GUARD_TIMEOUT_MS
exec "$adapter" "$@"
