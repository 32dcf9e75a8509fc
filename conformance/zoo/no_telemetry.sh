#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: ignores every telemetry endpoint setting.
# Breaks: OTLP (spans arrive), collector requests
# Catches: OTLP-0001 OTLP-0014 CLAUDE-0009
adapter="$1"; shift
exec env -u GEMINI_PLUGIN_OPTION_ENDPOINT -u OTEL_EXPORTER_OTLP_TRACES_ENDPOINT -u OTEL_EXPORTER_OTLP_ENDPOINT "$adapter" "$@"
