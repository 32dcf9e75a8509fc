# Shared by zoo members that talk to the case's fake collector themselves (bash only: /dev/tcp).
# zoo_endpoint: the traces URL the case configured, by the adapter's own precedence.
zoo_endpoint() {
  if [ -n "${GEMINI_PLUGIN_OPTION_ENDPOINT:-}" ]; then echo "$GEMINI_PLUGIN_OPTION_ENDPOINT"
  elif [ -n "${OTEL_EXPORTER_OTLP_TRACES_ENDPOINT:-}" ]; then echo "$OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
  elif [ -n "${OTEL_EXPORTER_OTLP_ENDPOINT:-}" ]; then echo "${OTEL_EXPORTER_OTLP_ENDPOINT%/}/v1/traces"
  fi
}
# zoo_post URL CONTENT_TYPE BODY: one HTTP/1.1 POST (ASCII body) to a loopback http URL.
zoo_post() {
  local url=$1 ctype=$2 body=$3 rest hostport path
  rest=${url#http://}; hostport=${rest%%/*}; path=/${rest#*/}
  [ "$rest" = "$hostport" ] && path=/
  { exec 3<>"/dev/tcp/${hostport%:*}/${hostport##*:}"; } 2>/dev/null || return 0
  printf 'POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s' \
    "$path" "$hostport" "$ctype" "${#body}" "$body" >&3
  cat <&3 >/dev/null 2>&1
  exec 3<&-
}
zoo_hex() { local n=$1 s=""; while [ ${#s} -lt "$n" ]; do s="$s$(printf '%04x' $RANDOM)"; done; echo "${s:0:$n}"; }
# Runs the adapter ($1, then its arguments) with telemetry switched off.
zoo_adapter_without_telemetry() {
  env -u GEMINI_PLUGIN_OPTION_ENDPOINT -u OTEL_EXPORTER_OTLP_TRACES_ENDPOINT -u OTEL_EXPORTER_OTLP_ENDPOINT "$@"
}
