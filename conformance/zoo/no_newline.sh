#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: no newline after the reply
# Breaks: OUT (object followed by newline)
# Catches: OUT-0001
adapter="$1"; shift
out=$("$adapter" "$@"); printf "%s" "$out"
