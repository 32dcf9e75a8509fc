#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: never reads stdin (answers as if the host sent nothing),
# while holding the pipe open, so a host writing a large payload blocks until it exits
# Breaks: GUARD (the tool call never reaches the guard), OTLP and TRACE (no span for the event)
# Catches: GUARD-0001 OTLP-0001 TRACE-0001
adapter="$1"; shift
"$adapter" "$@" </dev/null
