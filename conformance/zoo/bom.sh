#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: prefixes the reply with a UTF-8 BOM
# Breaks: OUT (no bytes around the object)
# Catches: OUT-0001 OUT-0005
adapter="$1"; shift
printf "\357\273\277"; exec "$adapter" "$@"
