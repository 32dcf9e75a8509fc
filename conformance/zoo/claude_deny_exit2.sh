#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Claude Code a guard deny exits 2 with the reason on
# stderr (the exit-code hosts' way) instead of the permissionDecision deny line with exit 0.
# Claude Code reads exit 2 on PreToolUse as a blocking error: the tool does not run, but the model
# is told `PreToolUse:Bash hook error: [<command>]: <stderr>`, the hook's failure, not the verdict.
# Breaks: CLAUDE-0002, CLAUDE-0008, and GUARD-0001, GUARD-0020..0022 under Claude Code (deny =
# JSON line + exit 0; never exit 2)
# Catches: CLAUDE-0002 CLAUDE-0008 GUARD-0001 GUARD-0020 GUARD-0021 GUARD-0022
adapter="$1"; shift
case " $* " in *" claude-code "*) ;; *) exec "$adapter" "$@";; esac
out="$("$adapter" "$@")"; rc=$?
case "$out" in
  *'"permissionDecision":"deny"'*)
    printf '%s\n' "$out" | sed -E 's/.*"permissionDecisionReason":"(.*)"\}\}$/\1/' >&2
    exit 2;;
esac
[ -n "$out" ] && printf '%s\n' "$out"
exit "$rc"
