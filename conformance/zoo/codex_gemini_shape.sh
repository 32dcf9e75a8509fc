#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Codex it answers a deny in the Gemini CLI shape
# ({"decision":"deny","reason":R}). Codex reads a top-level decision only as the legacy "block":
# "deny" fails its reply schema, the hook run is Failed and the command runs
# (shared/reference/real-hosts.md, "Codex 0.171.0 … hook rules": Gemini {"decision":"deny"}: ran).
# Breaks: CODEX-0002, CODEX-0008, CODEX-0011, GUARD-0001, GUARD-0010, GUARD-0011 under Codex
# (hookSpecificOutput.permissionDecision, contract CODEX-2)
# Catches: CODEX-0002 CODEX-0008 CODEX-0011 GUARD-0001 GUARD-0010 GUARD-0011
adapter="$1"; shift
case " $* " in *" codex "*) ;; *) exec "$adapter" "$@";; esac
"$adapter" "$@" | sed -E 's/^\{"hookSpecificOutput":\{"hookEventName":"[^"]*","permissionDecision":"([a-z]*)","permissionDecisionReason":(.*)\}\}$/{"decision":"\1","reason":\2}/'
