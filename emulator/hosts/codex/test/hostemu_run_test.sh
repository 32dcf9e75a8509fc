#!/usr/bin/env bash
# `hostemu codex run` end to end: a hooks.json in a temp CODEX_HOME through the hosts loader and
# planner, an untrusted hook skipped without a word, the same hook run under --bypass-trust and
# its exit-2 block reported as the model reads it; under a release's version profile (--version):
# the profile it maps to, a release without hook trust running the untrusted hook, an event the
# release does not fire running nothing, an updatedInput the release does not apply, a deny
# beside another hook undecided on a release with the deny race.
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
# Version profiles (hosts/codex/profiles/, the bisection's boundaries).
[ "$("$hostemu" codex profiles --version 0.144.6)" = codex-0.141 ] || { echo "FAIL: 0.144.6"; exit 1; }
[ "$("$hostemu" codex profiles --version 0.145.0)" = codex-0.145 ] || { echo "FAIL: 0.145.0"; exit 1; }
[ "$("$hostemu" codex profiles --version 0.146.0)" = codex-0.171 ] || { echo "FAIL: 0.146.0"; exit 1; }
rc=0; "$hostemu" codex profiles --version 0.999.0 > /dev/null 2>&1 || rc=$?
[ "$rc" = 3 ] || { echo "FAIL: a release past every profile exits $rc, not 3"; exit 1; }
echo "$payload" | "$hostemu" codex run --codex-home "$tmp/home" --project "$tmp/proj" \
  --event PreToolUse --version 0.124.0 > "$tmp/old.json"
check "0.124.0 has no hook trust: the untrusted hook runs and blocks" \
  'len(r["loaded"]) == 1 and not r["outcome"]["toolRuns"]' < "$tmp/old.json"
cat > "$tmp/home/hooks.json" <<'JSON'
{"hooks":{"SessionEnd":[{"hooks":[{"type":"command","command":"echo ran >> \"$M\""}]}],
 "PreToolUse":[{"hooks":[{"type":"command","command":"echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\",\"updatedInput\":{\"command\":\"ls\"}}}'"}]}]}}
JSON
end='{"session_id":"s","transcript_path":null,"cwd":"'"$tmp/proj"'","hook_event_name":"SessionEnd","reason":"other"}'
for v in 0.144.6 0.171.0; do
  echo "$end" | M="$tmp/marks-$v" "$hostemu" codex run --codex-home "$tmp/home" --project "$tmp/proj" \
    --event SessionEnd --bypass-trust --version "$v" > "$tmp/end-$v.json"
done
check "0.144.6 fires no SessionEnd" 'r["fired"] is False and r["loaded"] == []' < "$tmp/end-0.144.6.json"
[ ! -e "$tmp/marks-0.144.6" ] || { echo "FAIL: a SessionEnd hook ran under 0.144.6"; exit 1; }
check "0.171.0 fires SessionEnd" 'r["fired"] is True and len(r["loaded"]) == 1' < "$tmp/end-0.171.0.json"
[ -s "$tmp/marks-0.171.0" ] || { echo "FAIL: the SessionEnd hook did not run under 0.171.0"; exit 1; }
for v in 0.124.0 0.171.0; do
  echo "$payload" | "$hostemu" codex run --codex-home "$tmp/home" --project "$tmp/proj" \
    --event PreToolUse --bypass-trust --version "$v" > "$tmp/upd-$v.json"
done
check "0.124.0 runs the call as asked" 'r["outcome"]["updatedInput"] is None' < "$tmp/upd-0.124.0.json"
check "0.171.0 applies updatedInput" 'r["outcome"]["updatedInput"] == {"command": "ls"}' < "$tmp/upd-0.171.0.json"
# The deny race (profiles' deny_race, up to 0.145.x): a deny beside another hook is undecided there.
cat > "$tmp/home/hooks.json" <<'JSON'
{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"echo 'no rm' >&2; exit 2"},{"type":"command","command":"true"}]}]}}
JSON
for v in 0.145.0 0.146.0; do
  echo "$payload" | "$hostemu" codex run --codex-home "$tmp/home" --project "$tmp/proj" \
    --event PreToolUse --bypass-trust --version "$v" > "$tmp/race-$v.json"
done
check "0.145.0: the block may be lost" \
  'r["outcome"]["toolRuns"] is None and r["outcome"]["denyMayBeLost"] is True and r["outcome"]["blocked"]' \
  < "$tmp/race-0.145.0.json"
check "0.146.0: the block holds" \
  'r["outcome"]["toolRuns"] is False and "denyMayBeLost" not in r["outcome"]' < "$tmp/race-0.146.0.json"
echo "ok"
