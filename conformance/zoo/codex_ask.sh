#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Codex it answers with the ask Claude Code has and
# Codex has not: a guard DENY becomes permissionDecision ask, and a guard REVIEW (which our
# adapter answers with silence) the ask line too. Codex rejects `ask`: the hook run is Failed and
# the command runs, unasked (shared/reference/real-hosts.md, "Codex 0.171.0 … hook rules").
# The guard's verdict is read from the adapter's own debug log ("guard":"review").
# Breaks: CODEX-0002..0004, CODEX-0008, CODEX-0011, and GUARD-0001 under Codex (no ask: contract
# CODEX-2, CODEX-3)
# Catches: CODEX-0002 CODEX-0003 CODEX-0004 CODEX-0008 CODEX-0011 GUARD-0001
adapter="$1"; shift
case " $* " in *" codex "*) ;; *) exec "$adapter" "$@";; esac
d="$(mktemp -d)" || exit 1
out="$(GEMINI_PLUGIN_DATA="$d" PINTA_GEMINI_DEBUG=1 "$adapter" "$@")"; rc=$?
if [ -z "$out" ] && grep -q '"guard":"review"' "$d/invocations.jsonl" 2>/dev/null; then
  out='{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"needs review"}}'
fi
rm -rf "$d"
[ -n "$out" ] && printf '%s\n' "$out" | sed 's/"permissionDecision":"deny"/"permissionDecision":"ask"/'
exit "$rc"
