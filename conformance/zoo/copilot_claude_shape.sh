#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Copilot it answers a camelCase (native) hook file
# in the Claude hookSpecificOutput shape, as Claude Code and Codex read a deny. Copilot ignores
# hookSpecificOutput in the native format: the call runs (shared/reference/real-hosts.md,
# "Codex 0.171.0, Copilot 1.0.102, … hook rules"; CPM scenario c-pre-hso-deny).
# Breaks: COPILOT-0002, COPILOT-0009 (its ask the same way), COPILOT-0010, COPILOT-0016 and
# GUARD-0001 under Copilot (contract COPILOT-3, COPILOT-4: the top-level pair)
# Catches: COPILOT-0002 COPILOT-0009 COPILOT-0010 COPILOT-0016 GUARD-0001
adapter="$1"; shift
case " $* " in *" copilot "*|*" copilot-claude "*) ;; *) exec "$adapter" "$@";; esac
out="$("$adapter" "$@")"; rc=$?
[ -n "$out" ] && printf '%s\n' "$out" |
  sed 's/^{"permissionDecision":\(.*\)}$/{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":\1}}/'
exit "$rc"
