#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: never reads ~/.gemini/pinta-gemini.env (run with an empty
# HOME; the default data dir then lives there too).
# Breaks: ENV-0001 (env file is read), GUARD-0014
# Catches: ENV-0001 GUARD-0014
adapter="$1"; shift
home=$(mktemp -d) || exit 1
HOME="$home" "$adapter" "$@"; rc=$?
rm -rf "$home"
exit $rc
