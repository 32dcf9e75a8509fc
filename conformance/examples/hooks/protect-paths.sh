#!/usr/bin/env bash
# intent: deny when tool_name|도구 matches ^(write_file|replace|Write|Edit)$; else allow
# Deny by exit 2 (bash + jq): writes outside src/ are refused; the reason goes to stdout, which
# both Gemini CLI (exit 2: the text is the reason) and deel-local-cli (exit 2: stdout is the
# message) show.
set -euo pipefail
input="$(cat)"
tool="$(jq -r '.tool_name // .["도구"] // ""' <<<"$input")"
path="$(jq -r '.tool_input.file_path // .file_path // ""' <<<"$input")"
case "$tool" in
  write_file|replace|Write|Edit)
    case "$path" in
      */src/*) exit 0 ;;
      *) echo "protect-paths: writes outside src/ are not allowed ($path)"; exit 2 ;;
    esac ;;
esac
exit 0
