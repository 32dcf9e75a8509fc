#!/bin/bash
# Zoo: our adapter ($1) plus one flaw: its own telemetry is off and it posts a span encoded the way
# OTLP/JSON forbids (uppercase short ids, a 64-bit time as a JSON number, untyped attribute value),
# as text/plain.
# Breaks: OTLP encoding and content type
# Catches: OTLP-0002 OTLP-0010
adapter="$1"; shift
. "$(dirname "$0")/lib/otlp.sh"
url=$(zoo_endpoint)
zoo_adapter_without_telemetry "$adapter" "$@"
rc=$?
[ -n "$url" ] && zoo_post "$url" text/plain \
  '{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":"gemini-cli"}]},"scopeSpans":[{"spans":[{"traceId":"ABC","spanId":"1","name":"gemini.before_tool","startTimeUnixNano":1,"endTimeUnixNano":2}]}]}]}'
exit $rc
