#!/bin/bash
# Zoo: our adapter ($1) plus one flaw: its own telemetry is off and it posts a span that gets the
# GenAI semantic conventions wrong: gen_ai.operation.name = execute_tool on every event (tool or
# not), and no gen_ai.tool.name, gen_ai.conversation.id or gen_ai.agent.name. The Bronze
# attributes it does carry are right, so only the GenAI checks can tell.
# Breaks: OTLP GenAI attributes (contract OTLP-3a)
# Catches: OTLP-0016 OTLP-0017
adapter="$1"; shift
. "$(dirname "$0")/lib/otlp.sh"
url=$(zoo_endpoint)
agent="" event=""
args=("$@")
for ((i = 0; i < ${#args[@]}; ++i)); do
  case "${args[i]}" in
    --agent) agent=${args[i + 1]:-} ;;
    --event) event=${args[i + 1]:-} ;;
  esac
done
zoo_adapter_without_telemetry "$adapter" "$@"
rc=$?
s() { printf '{"key":"%s","value":{"stringValue":"%s"}}' "$1" "$2"; }
attrs="$(s ingest.type "$agent"),$(s "$agent.hook" "$event"),$(s "$agent.agent" "$agent"),$(s gen_ai.operation.name execute_tool)"
span='{"traceId":"'"$(zoo_hex 32)"'","spanId":"'"$(zoo_hex 16)"'","name":"'"$agent.hook"'","kind":1,"startTimeUnixNano":"1","endTimeUnixNano":"2","attributes":['"$attrs"']}'
[ -n "$url" ] && zoo_post "$url" application/json \
  '{"resourceSpans":[{"resource":{"attributes":[]},"scopeSpans":[{"scope":{"name":"zoo"},"spans":['"$span"']}]}]}'
exit $rc
