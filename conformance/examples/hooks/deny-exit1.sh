#!/usr/bin/env bash
# intent: deny when tool_input.file_path|file_path matches .; else allow
# The common mistake: "fail" with exit 1 to block. Gemini CLI reads exit 1 as a failed hook (a
# warning) and runs the tool; deel-local-cli counts a broken hook.
input="$(cat)"
if grep -q '"file_path"' <<<"$input"; then
  echo "no file writes today" >&2
  exit 1
fi
exit 0
