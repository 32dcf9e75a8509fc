#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: posts spans to the endpoint's base URL, without /v1/traces
# (the GEMINI_PLUGIN_OPTION_ENDPOINT path dropped; OTEL_EXPORTER_OTLP_ENDPOINT used as is).
# Breaks: OTLP-0010, OTLP-0011 (request path)
# Catches: OTLP-0010 OTLP-0011
adapter="$1"; shift
if [ -n "${GEMINI_PLUGIN_OPTION_ENDPOINT:-}" ]; then
  GEMINI_PLUGIN_OPTION_ENDPOINT="${GEMINI_PLUGIN_OPTION_ENDPOINT%/v1/traces}/"; export GEMINI_PLUGIN_OPTION_ENDPOINT
fi
if [ -n "${OTEL_EXPORTER_OTLP_ENDPOINT:-}" ]; then
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT="$OTEL_EXPORTER_OTLP_ENDPOINT"; export OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
fi
exec "$adapter" "$@"
