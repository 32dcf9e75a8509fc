#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: sends a relay token other than the configured one.
# Breaks: GUARD-0009 (request header), REDACT-0005 (token only in the header)
# Catches: GUARD-0009 REDACT-0005
adapter="$1"; shift
PINTA_RELAY_TOKEN=not-the-configured-token; export PINTA_RELAY_TOKEN
exec "$adapter" "$@"
