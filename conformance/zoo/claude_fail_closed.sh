#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Claude Code it fails closed: when the guard could not
# be asked (refused, HTTP 500, not JSON: the debug log's "guard":"unavailable") it denies the
# tool call instead of allowing it.
# Breaks: CLAUDE-0007, GUARD-0005..0007, GUARD-0017 under Claude Code (fail open on guard faults)
# Catches: CLAUDE-0007 GUARD-0005 GUARD-0006 GUARD-0007 GUARD-0017
adapter="$1"; shift
case " $* " in *" claude-code "*) ;; *) exec "$adapter" "$@";; esac
d="$(mktemp -d)" || exit 1
out="$(GEMINI_PLUGIN_DATA="$d" PINTA_GEMINI_DEBUG=1 "$adapter" "$@")"; rc=$?
if [ -z "$out" ] && grep -q '"guard":"unavailable"' "$d/invocations.jsonl" 2>/dev/null; then
  out='{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"guard unavailable"}}'
fi
rm -rf "$d"
[ -n "$out" ] && printf '%s\n' "$out"
exit "$rc"
