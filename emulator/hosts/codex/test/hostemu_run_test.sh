#!/usr/bin/env bash
# `hostemu codex run` end to end: a hooks.json in a temp CODEX_HOME through the hosts loader and
# planner, an untrusted hook skipped without a word, the same hook run under --bypass-trust and
# its exit-2 block reported as the model reads it.
set -euo pipefail
hostemu=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/home" "$tmp/proj"
cat > "$tmp/home/hooks.json" <<'JSON'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo 'no rm' >&2; exit 2","timeout":5}]},
 {"matcher":"^Edit$","hooks":[{"type":"command","command":"echo never"}]}]}}
JSON
payload='{"session_id":"s","turn_id":"0","transcript_path":null,"cwd":"'"$tmp/proj"'","hook_event_name":"PreToolUse","model":"m","permission_mode":"bypassPermissions","tool_name":"Bash","tool_input":{"command":"rm -rf x"},"tool_use_id":"c1"}'
check() {  # check NAME PYTHON-EXPR (over the report `r`)
  python3 -c 'import json,sys; r=json.load(sys.stdin); sys.exit(0 if ('"$2"') else 1)' \
    || { echo "FAIL: $1"; exit 1; }
}
echo "$payload" | "$hostemu" codex run --codex-home "$tmp/home" --project "$tmp/proj" \
  --event PreToolUse > "$tmp/untrusted.json"
check "untrusted hook skipped" 'r["loaded"] == [] and r["outcome"]["toolRuns"]' < "$tmp/untrusted.json"
echo "$payload" | "$hostemu" codex run --codex-home "$tmp/home" --project "$tmp/proj" \
  --event PreToolUse --bypass-trust > "$tmp/bypass.json"
check "one matching hook" 'len(r["loaded"]) == 1 and r["loaded"][0]["timeoutSec"] == 5' < "$tmp/bypass.json"
check "blocked as measured" \
  'r["outcome"]["modelText"] == "Command blocked by PreToolUse hook: no rm. Command: rm -rf x" and not r["outcome"]["toolRuns"]' \
  < "$tmp/bypass.json"
if echo "$payload" | "$hostemu" codex run --codex-home "$tmp/home" --project "$tmp/proj" \
  --event NoSuchEvent > /dev/null 2>&1; then
  echo "FAIL: unknown event accepted"; exit 1
fi
echo "ok"
