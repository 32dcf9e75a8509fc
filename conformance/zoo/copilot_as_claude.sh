#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Copilot it runs as Claude Code (`--agent claude-code`),
# as an adapter installed into the repository's .claude/settings.json for Claude Code is run by
# Copilot. Its deny is the hookSpecificOutput shape, which Copilot ignores in a native file (the
# call runs), the guard is told the wrong agent and the spans carry Claude Code's name.
# Breaks: COPILOT-0002 (the reply, the guard request's agent), COPILOT-0014 and COPILOT-0015
# (Copilot spans, contract COPILOT-6)
# Catches: COPILOT-0002 COPILOT-0014 COPILOT-0015
adapter="$1"; shift
case " $* " in *" copilot "*|*" copilot-claude "*) ;; *) exec "$adapter" "$@";; esac
n=$#; prev=""
for a in "$@"; do
  [ "$prev" = "--agent" ] && a=claude-code
  set -- "$@" "$a"; prev="$a"
done
shift "$n"
exec "$adapter" "$@"
