#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Claude Code it answers a deny or an ask in the
# Gemini CLI shape ({"decision":"deny","reason":R}). Claude Code 2.1 reads a top-level decision
# only as the older block/approve (docs/hosts/claude-code-2.1.md, pre-decision-block): "deny" and
# "ask" there fail its reply schema, the reply is not read (a hook error), so the tool runs
# (reply-invalid-decision).
# Breaks: CLAUDE-0002, CLAUDE-0003, CLAUDE-0008, GUARD-0010, GUARD-0011 under Claude Code
# (hookSpecificOutput.permissionDecision)
# Catches: CLAUDE-0002 CLAUDE-0003 CLAUDE-0008 GUARD-0010 GUARD-0011
adapter="$1"; shift
case " $* " in *" claude-code "*) ;; *) exec "$adapter" "$@";; esac
"$adapter" "$@" | sed -E 's/^\{"hookSpecificOutput":\{"hookEventName":"[^"]*","permissionDecision":"([a-z]*)","permissionDecisionReason":(.*)\}\}$/{"decision":"\1","reason":\2}/'
