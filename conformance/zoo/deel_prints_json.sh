#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under deel-local-cli it prints the JSON-line allow `{}`
# Breaks: DEEL (allow is silence: any output becomes a note the user sees)
# Catches: DEEL-0001 DEEL-0003 DEEL-0005
adapter="$1"; shift
case " $* " in *" deel "*) "$adapter" "$@"; rc=$?; echo "{}"; exit $rc;; esac; exec "$adapter" "$@"
