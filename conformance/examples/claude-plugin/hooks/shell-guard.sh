#!/usr/bin/env bash
# intent: deny when tool_input.command matches rm -rf; else allow
# A plugin's hook, named in hooks/hooks.json through ${CLAUDE_PLUGIN_ROOT}: Claude Code replaces
# it with the plugin's installed folder (and sets it in the hook's environment). Denies by exit 2
# with the reason on stderr, which Claude Code gives the model.
input="$(cat)"
if grep -q '"command" *: *"[^"]*rm -rf' <<<"$input"; then
  echo "shell-guard: rm -rf is not run by the agent (plugin at $CLAUDE_PLUGIN_ROOT)" >&2
  exit 2
fi
exit 0
