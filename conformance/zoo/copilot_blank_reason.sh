#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Copilot it passes a blank guard reason through as is
# (the `guard_deny` placeholder becomes ""). Copilot blocks, but the model reads `Denied by
# preToolUse hook: ` with no reason (CPM scenario c-pre-deny-empty-reason; contract COPILOT-3).
# Breaks: COPILOT-0010, and GUARD-0011 under Copilot
# Catches: COPILOT-0010 GUARD-0011
adapter="$1"; shift
case " $* " in *" copilot "*|*" copilot-claude "*) ;; *) exec "$adapter" "$@";; esac
out="$("$adapter" "$@")"; rc=$?
[ -n "$out" ] && printf '%s\n' "$out" | sed 's/"permissionDecisionReason":"guard_deny"/"permissionDecisionReason":""/'
exit "$rc"
