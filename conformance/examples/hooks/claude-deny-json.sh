#!/usr/bin/env bash
# intent: deny when tool_input.command matches rm -(rf|fr); else allow
# Claude Code's own way to refuse a tool call (bash + jq): a Bash command that deletes
# recursively gets hookSpecificOutput.permissionDecision "deny" with a reason on stdout and exit 0
# (the model is told `PreToolUse:Bash hook error: <reason>`); anything else gets no output, so the
# host's own permission rules decide.
set -euo pipefail
input="$(cat)"
cmd="$(jq -r '.tool_input.command // ""' <<<"$input")"
case "$cmd" in
  *"rm -rf"* | *"rm -fr"*)
    jq -cn --arg r "recursive deletes need a person to run them: $cmd" \
      '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "deny",
        permissionDecisionReason: $r}}' ;;
esac
exit 0
