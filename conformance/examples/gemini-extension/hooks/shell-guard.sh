#!/usr/bin/env bash
# intent: deny when tool_input.command matches rm -rf; else allow
# An extension's hook, named in hooks/hooks.json through ${extensionPath}: Gemini CLI replaces it
# with the extension's installed folder, so the script is found wherever the user runs the CLI.
# A JSON reply on exit 0 (no jq: grep on the payload).
input="$(cat)"
if grep -q '"command" *: *"[^"]*rm -rf' <<<"$input"; then
  echo '{"decision":"deny","reason":"shell-guard: rm -rf is not run by the agent"}'
else
  echo '{"decision":"allow"}'
fi
