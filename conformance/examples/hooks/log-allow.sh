#!/usr/bin/env bash
# intent: allow
# A silent audit logger (bash + jq): appends one line per event to ~/.hook-audit.jsonl and says
# nothing, so the host goes on as if there were no hook.
set -euo pipefail
jq -c '{at: (now | todate), event: (.hook_event_name // .["자리"] // "?"), tool: (.tool_name // .["도구"] // null)}' \
  >>"$HOME/.hook-audit.jsonl"
