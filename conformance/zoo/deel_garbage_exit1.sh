#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: exits 1 when stdin is not a JSON object
# Breaks: DEEL-0006 (any status but 0 or 2 is a broken hook, and deel blocks the tool call on it)
# Catches: DEEL-0006
adapter="$1"; shift
in=$(cat)
case "$in" in "{"*) printf "%s" "$in" | "$adapter" "$@"; exit $?;; esac
printf '%s' "$in" | "$adapter" "$@"; exit 1
