#!/usr/bin/env bash
# intent: allow
# A logger that prints its log line to stdout (the mistake): the host reads stdout as the reply.
input="$(cat)"
echo "[audit] $(date -u +%FT%TZ) $(printf '%s' "$input" | head -c 60)"
exit 0
