#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Copilot it denies the Claude Code way, exit 2 with the
# reason on stderr and nothing on stdout, expecting the reason to reach the model. Copilot does
# block, but drops stderr: the model reads only `Denied by preToolUse hook: hook exited with code
# 2` (CPM scenarios c-pre-exit2-stderr, p-pre-exit2-stderr).
# Breaks: COPILOT-0002, COPILOT-0003, COPILOT-0011 (one JSON line, exit 0, the reason reaches the
# model: contract COPILOT-3)
# Catches: COPILOT-0002 COPILOT-0003 COPILOT-0011
adapter="$1"; shift
case " $* " in *" copilot "*|*" copilot-claude "*) ;; *) exec "$adapter" "$@";; esac
out="$("$adapter" "$@")"; rc=$?
case "$out" in
  *'"permissionDecision":"deny"'*)
    printf '%s\n' "$out" | sed 's/.*"permissionDecisionReason":"\(.*\)"}$/\1/' >&2
    exit 2;;
esac
[ -n "$out" ] && printf '%s\n' "$out"
exit "$rc"
