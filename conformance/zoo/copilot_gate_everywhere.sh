#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Copilot it treats every event as the gate (it runs
# each one as preToolUse), so the guard is asked on sessionStart, agentStop, permissionRequest, on
# events it does not know, and its deny is printed there. On agentStop and subagentStop a block
# forces another turn (a loop, CPM scenario c-agentstop-block); on permissionRequest a decision
# bypasses the permission service (contract COPILOT-5: every other event is silent).
# Breaks: COPILOT-0012, COPILOT-0013
# Catches: COPILOT-0012 COPILOT-0013
adapter="$1"; shift
case " $* " in *" copilot "*|*" copilot-claude "*) ;; *) exec "$adapter" "$@";; esac
n=$#; prev=""
for a in "$@"; do
  [ "$prev" = "--event" ] && a=preToolUse
  set -- "$@" "$a"; prev="$a"
done
shift "$n"
exec "$adapter" "$@"
