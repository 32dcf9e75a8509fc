#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Codex, where our adapter says nothing, it answers an
# explicit allow, {"hookSpecificOutput":{"hookEventName":E,"permissionDecision":"allow"}}. Codex
# accepts permissionDecision allow only with updatedInput, and on PreToolUse only: every such run
# is Failed, a warning on every call (docs/hosts/codex-0.171.md "Replies", scenario
# pre-allow-no-updated-input). Silence is the one reply Codex never fails.
# Breaks: CODEX-0001, CODEX-0003..0007, CODEX-0009, and GUARD-0002 under Codex (allow is silence,
# contract CODEX-1)
# Catches: CODEX-0001 CODEX-0003 CODEX-0004 CODEX-0005 CODEX-0006 CODEX-0007 CODEX-0009 GUARD-0002
adapter="$1"; shift
case " $* " in *" codex "*) ;; *) exec "$adapter" "$@";; esac
event=""; prev=""
for a in "$@"; do [ "$prev" = "--event" ] && event="$a"; prev="$a"; done
out="$("$adapter" "$@")"; rc=$?
if [ -n "$out" ]; then printf '%s\n' "$out"
else printf '{"hookSpecificOutput":{"hookEventName":"%s","permissionDecision":"allow"}}\n' "$event"
fi
exit "$rc"
