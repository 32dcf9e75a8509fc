#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: ignores the configured OTLP headers.
# Breaks: OTLP-0013 (headers reach the collector)
# Catches: OTLP-0013
adapter="$1"; shift
exec env -u GEMINI_PLUGIN_OPTION_HEADERS -u OTEL_EXPORTER_OTLP_HEADERS "$adapter" "$@"
