#!/usr/bin/env bash
# `hostemu copilot run` end to end (hermetic: a temp HOME and project, no policy folder): the
# loader's sources and trust, the fail-closed gate, each format's reading, the payload each
# format's hook gets, the environment, a timeout failing open, the stdout cap. CPM =
# emulator/hosts/copilot/test/scenarios/<name>.json (the real 1.0.102, measured).
set -euo pipefail
HOSTEMU=${1:?usage: hostemu_run_test.sh HOSTEMU}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export HOME=$T/home PINTA_COPILOT_POLICY_DIR="" M=$T/marks
unset COPILOT_HOME GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS COPILOT_ALLOW_ALL
P=$T/proj
NATIVE='{"sessionId":"s","timestamp":1796659347664,"cwd":"'$P'","toolName":"bash","toolArgs":{"command":"touch ran","description":"touch"}}'
fails=0

reset() { rm -rf "$HOME" "$P" "$M"; mkdir -p "$HOME/.copilot/hooks" "$P"; }
hooks() { printf '%s' "$1" > "$HOME/.copilot/hooks/main.json"; }
run() {  # run EVENT [PAYLOAD] -> the report on stdout
  printf '%s' "${2:-$NATIVE}" | "$HOSTEMU" copilot run --home "$HOME" --project "$P" --event "$1" 2>/dev/null
}
check() {  # check NAME REPORT PYTHON-EXPRESSION-over-o (outcome) and m (marks)
  local marks=""
  [ -f "$M" ] && marks=$(cat "$M")
  if ! python3 -c 'import json,sys; o=json.loads(sys.argv[1])["outcome"]; m=sys.argv[2].split(); sys.exit(0 if eval(sys.argv[3]) else 1)' "$2" "$marks" "$3"; then
    echo "FAIL $1: $3"; echo "  report: ${2:0:600}"; echo "  marks: $marks"; fails=$((fails+1))
  else
    echo "ok   $1"
  fi
}

reset; hooks '{"version":1,"hooks":{"preToolUse":[{"bash":"echo h1 >> \"$M\"; printf %s \"{\\\"permissionDecision\\\":\\\"deny\\\",\\\"permissionDecisionReason\\\":\\\"R\\\"}\""},{"bash":"echo h2 >> \"$M\""}]}}'
check deny-stops-later "$(run preToolUse)" 'not o["toolRuns"] and o["modelText"]=="Denied by preToolUse hook: R" and m==["h1"]'

reset; hooks '{"version":1,"hooks":{"preToolUse":[{"bash":"printf %s \"{\\\"permissionDecision\\\":\\\"allow\\\"}\"; exit 1"}]}}'
check exit1-allow-denies "$(run preToolUse)" 'not o["toolRuns"] and o["modelText"]=="Denied by preToolUse hook from \"'$HOME'/.copilot/hooks/main.json\" (hook errored)"'

reset; hooks '{"version":1,"hooks":{"preToolUse":[{"bash":"kill -9 $$"}]}}'
check signal-denies "$(run preToolUse)" 'not o["toolRuns"] and o["modelText"].endswith("(hook errored)")'

reset; hooks '{"version":1,"hooks":{"preToolUse":[{"bash":"echo no >&2; exit 2"}]}}'
check exit2 "$(run preToolUse)" 'o["modelText"]=="Denied by preToolUse hook: hook exited with code 2"'

reset; hooks '{"version":1,"hooks":{"preToolUse":[{"bash":"echo h1 >> \"$M\"; sleep 3; echo late >> \"$M\"; exit 1","timeoutSec":1}]}}'
check timeout-fails-open "$(run preToolUse)" 'o["toolRuns"] and m==["h1"]'

reset; hooks '{"version":1,"hooks":{"preToolUse":[{"bash":"printf %s \"{\\\"permissionDecision\\\":\\\"ask\\\",\\\"permissionDecisionReason\\\":\\\"A\\\"}\""}]}}'
check ask-denies "$(run preToolUse)" 'o["modelText"]=="Denied by preToolUse hook (unable to ask user for confirmation): A"'

reset; hooks '{"version":1,"hooks":{"preToolUse":[{"bash":"printf %s \"{\\\"hookSpecificOutput\\\":{\\\"permissionDecision\\\":\\\"deny\\\"}}\""}],"PreToolUse":[{"matcher":"Bash","hooks":[{"command":"cat > \"$M\"; printf %s \"{\\\"hookSpecificOutput\\\":{\\\"permissionDecision\\\":\\\"deny\\\"}}\""}]}]}}'
R=$(run preToolUse)
check native-ignores-hso-claude-reads-it "$R" 'not o["toolRuns"] and o["modelText"]=="Denied by preToolUse hook: No reason provided"'
check claude-hook-gets-claude-payload "$R" 'json.loads(open("'$M'").read())["tool_name"]=="Bash" and open("'$M'").read().startswith("{\"hook_event_name\":\"PreToolUse\",\"session_id\":\"s\",\"timestamp\":\"2026-")'

reset; hooks '{"version":1,"hooks":{"preToolUse":[{"bash":"printf %s \"$COPILOT_CLI $COPILOT_HOOK_DIR $COPILOT_PROJECT_DIR ${COPILOT_PROVIDER_API_KEY:-none} $(pwd)\" >> \"$M\""}]}}'
check environment "$(COPILOT_PROVIDER_API_KEY=k run preToolUse)" 'm==["1","'$HOME'/.copilot/hooks","'$P'","none","'$P'"]'

reset; hooks '{"version":1,"hooks":{"preToolUse":[{"bash":"python3 -c \"import sys;sys.stdout.write(chr(32)*(11*1024*1024)+chr(123)+chr(34)+\\\"permissionDecision\\\"+chr(34)+chr(58)+chr(34)+\\\"deny\\\"+chr(34)+chr(125))\""}]}}'
check stdout-over-10MiB-dropped "$(run preToolUse)" 'o["toolRuns"]'

reset; mkdir -p "$P/.claude"
printf '%s' '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo claude >> \"$M\"; printf %s \"{\\\"hookSpecificOutput\\\":{\\\"permissionDecision\\\":\\\"deny\\\",\\\"permissionDecisionReason\\\":\\\"C\\\"}}\""}]}]}}' > "$P/.claude/settings.json"
check claude-settings-untrusted "$(run preToolUse)" 'o["toolRuns"] and m==[]'
printf '{"trustedFolders":["%s"]}' "$P" > "$HOME/.copilot/config.json"
check claude-settings-trusted "$(run preToolUse)" 'not o["toolRuns"] and o["modelText"]=="Denied by preToolUse hook: C" and m==["claude"]'

reset; hooks '{"version":1,"hooks":{"userPromptSubmitted":[{"bash":"printf %s \"{\\\"additionalContext\\\":\\\"X\\\",\\\"permissionDecision\\\":\\\"deny\\\"}\""}],"agentStop":[{"bash":"printf %s \"{\\\"decision\\\":\\\"block\\\",\\\"reason\\\":\\\"again\\\"}\""}]}}'
check ups-context-no-block "$(run userPromptSubmitted '{"sessionId":"s","timestamp":1,"cwd":"'$P'","prompt":"go"}')" 'o["additionalContexts"]==["X"] and not o["blocked"]'
check stop-block-reprompts "$(run agentStop '{"sessionId":"s","timestamp":1,"cwd":"'$P'","stopReason":"end_turn","stop_hook_active":false}')" 'o["blocked"] and o["additionalContexts"]==["again"]'

# Version profiles (hosts/copilot/profiles/, each rule with its probe's evidence): `--version V`
# runs under the profile covering release V.
runv() {  # runv VERSION EVENT [PAYLOAD] -> the report on stdout
  printf '%s' "${3:-$NATIVE}" | "$HOSTEMU" copilot run --home "$HOME" --project "$P" --event "$2" --version "$1" 2>/dev/null
}
whole() {  # whole REPORT -> the report as {"outcome": …} for check's o
  python3 -c 'import json,sys; print(json.dumps({"outcome": json.loads(sys.argv[1])}))' "$1"
}
reset; hooks '{"version":1,"hooks":{"preToolUse":[{"bash":"echo HK no >&2; exit 2"}]}}'
check v1.0.57-exit2-runs-with-notice "$(runv 1.0.57 preToolUse)" 'o["toolRuns"] and o["notices"]==["! HK no\n"]'
check v1.0.73-exit2-denies "$(runv 1.0.73 preToolUse)" 'not o["toolRuns"] and o["modelText"]=="Denied by preToolUse hook: hook exited with code 2" and o["notices"]==[]'
reset; hooks '{"version":1,"hooks":{"preToolUse":[{"bash":"sleep 3","timeoutSec":1}]}}'
check v1.0.63-timeout-denies "$(runv 1.0.63 preToolUse)" 'not o["toolRuns"] and o["modelText"]=="Denied by preToolUse hook from \"'$HOME'/.copilot/hooks/main.json\" (hook errored)"'
check v1.0.64-timeout-fails-open "$(runv 1.0.64 preToolUse)" 'o["toolRuns"]'
reset; hooks '{"version":1,"hooks":{"preToolUse":[{"bash":"exit 1"}]}}'
check v1.0.60-errored-names-no-file "$(runv 1.0.60 preToolUse)" 'o["modelText"]=="Denied by preToolUse hook (hook errored)"'
check v1.0.61-errored-names-the-file "$(runv 1.0.61 preToolUse)" 'o["modelText"].startswith("Denied by preToolUse hook from ")'
reset; mkdir -p "$P/.claude"
printf '%s' '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo claude >> \"$M\"; exit 1"}]}]}}' > "$P/.claude/settings.json"
printf '{"trustedFolders":["%s"]}' "$P" > "$HOME/.copilot/config.json"
check v1.0.65-claude-settings-not-run "$(runv 1.0.65 preToolUse)" 'o["toolRuns"] and m==[]'
check v1.0.73-claude-settings-run "$(runv 1.0.73 preToolUse)" 'not o["toolRuns"] and m==["claude"]'
# The native toolArgs as a JSON text (up to 1.0.73): a Claude-style hook of the same run gets the
# object, and the tool name is the runtime one up to 1.0.61 (the Claude one from 1.0.63).
TEXT='{"sessionId":"s","timestamp":1796659347664,"cwd":"'$P'","toolName":"bash","toolArgs":"{\"command\":\"touch ran\"}"}'
reset; hooks '{"version":1,"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"command":"cat > \"$M\""}]}]}}'
runv 1.0.61 preToolUse "$TEXT" > /dev/null
check v1.0.61-claude-payload "{\"outcome\":$(cat "$M")}" 'o["tool_name"]=="bash" and o["tool_input"]=={"command":"touch ran"}'
runv 1.0.63 preToolUse "$TEXT" > /dev/null
check v1.0.63-claude-payload "{\"outcome\":$(cat "$M")}" 'o["tool_name"]=="Bash" and o["tool_input"]=={"command":"touch ran"}'
reset; hooks '{"version":1,"hooks":{"preToolUse":[{"bash":"echo \"dir=${COPILOT_HOOK_DIR:-none}\" >> \"$M\""}],"userPromptTransformed":[{"bash":"echo upt >> \"$M\""}]}}'
check v1.0.73-no-hook-dir "$(runv 1.0.73 preToolUse)" 'm==["dir=none"]'
R=$(runv 1.0.65 userPromptTransformed '{"sessionId":"s","timestamp":1,"cwd":"'$P'","prompt":"go"}')
check v1.0.65-no-prompt-transformed "$(whole "$R")" 'o["fired"] is False and o["results"]==[] and m==["dir=none"]'
R=$(runv 1.0.73 userPromptTransformed '{"sessionId":"s","timestamp":1,"cwd":"'$P'","prompt":"go"}')
check v1.0.73-prompt-transformed "$(whole "$R")" 'o["fired"] is True and m==["dir=none","upt"]'
# `hostemu copilot profiles`: every profile and what it changes; a release in no profile's range
# (not probed yet, or newer than the newest) is exit 3, for the radar.
L=$("$HOSTEMU" copilot profiles)
check profiles-list "$(python3 -c 'import json,sys;print(json.dumps({"outcome":sys.argv[1].splitlines()}))' "$L")" \
  'len(o)==6 and o[-1]=="copilot-1.0\t1.0.102 .. 1.0.102\tas 1.0.102" and o[0].startswith("copilot-1.0.57\t1.0.57 .. 1.0.60\texit2_denies=false ")'
for v in 1.0.65:copilot-1.0.64 1.0.68:3 1.0.64-1:2; do  # every boundary: hosts_copilot_test
  rc=0; out=$("$HOSTEMU" copilot profiles --version "${v%%:*}" 2>/dev/null) || rc=$?
  check "profiles-version-${v%%:*}" "{\"outcome\":[\"$rc\",\"$out\"]}" '(o[1] if o[0]=="0" else o[0])=="'"${v#*:}"'"'
done
rc=0; "$HOSTEMU" copilot run --home "$HOME" --project "$P" --event preToolUse --version 1.0.68 < /dev/null > /dev/null 2>&1 || rc=$?
check run-version-unprofiled-is-usage-error "{\"outcome\":$rc}" 'o==2'

# `hostemu copilot model-server`: the scripted Responses API the real-CLI lane points
# COPILOT_PROVIDER_BASE_URL at: prints its port, answers a streamed request with the scripted turn
# and logs it; a bad port or script is a usage error (exit 2) naming the command.
printf '%s' '{"turns":[{"content":[{"type":"text","text":"hello"}]}]}' > "$T/turns.json"
"$HOSTEMU" copilot model-server --script "$T/turns.json" --log "$T/api.jsonl" > "$T/port" & srv=$!
for _ in $(seq 100); do [ -s "$T/port" ] && break; sleep 0.05; done
reply=$(curl -s -H 'Authorization: Bearer k' -d '{"model":"m","stream":true,"input":[]}' \
  "http://127.0.0.1:$(cut -d' ' -f2 "$T/port")/v1/responses" || true)
kill "$srv"; wait "$srv" || true
check model-server-serves "{\"outcome\":$(python3 -c 'import json,sys;print(json.dumps({"r":sys.argv[1],"log":open(sys.argv[2]).read()}))' "$reply" "$T/api.jsonl")}" \
  '"event: response.completed" in o["r"] and "hello" in o["r"] and json.loads(o["log"].splitlines()[0])["status"]==200'
rc=0; err=$("$HOSTEMU" copilot model-server --script "$T/turns.json" --port 70000 2>&1) || rc=$?
check model-server-bad-port "{\"outcome\":$(python3 -c 'import json,sys;print(json.dumps([sys.argv[1],sys.argv[2]]))' "$rc" "$err")}" \
  'o[0]=="2" and "copilot model-server: --port must be 0..65535" in o[1]'
rc=0; err=$("$HOSTEMU" copilot model-server --script "$T/missing.json" 2>&1) || rc=$?
check model-server-bad-script "{\"outcome\":$(python3 -c 'import json,sys;print(json.dumps([sys.argv[1],sys.argv[2]]))' "$rc" "$err")}" \
  'o[0]=="2" and o[1].startswith("hostemu: copilot model-server: ")'

[ "$fails" -eq 0 ] || { echo "$fails failed"; exit 1; }
echo "all passed"
