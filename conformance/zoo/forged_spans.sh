#!/bin/bash
# Zoo: our adapter ($1) plus one flaw: its own telemetry is off and it posts a hand-made span
# instead: well-formed OTLP/JSON, but a wrong name, no resource or span attributes, the same
# spanId twice in every request and a new traceId on every event.
# Breaks: OTLP naming, resource, attributes, ids; TRACE correlation
# Catches: OTLP-0002 OTLP-0003 OTLP-0004 OTLP-0005 TRACE-0001
adapter="$1"; shift
. "$(dirname "$0")/lib/otlp.sh"
url=$(zoo_endpoint)
zoo_adapter_without_telemetry "$adapter" "$@"
rc=$?
tid=$(zoo_hex 32)
span='{"traceId":"'"$tid"'","spanId":"00000000000000aa","name":"zoo.span","kind":1,"startTimeUnixNano":"1","endTimeUnixNano":"2","attributes":[]}'
[ -n "$url" ] && zoo_post "$url" application/json \
  '{"resourceSpans":[{"resource":{"attributes":[]},"scopeSpans":[{"scope":{"name":"zoo"},"spans":['"$span,$span"']}]}]}'
exit $rc
