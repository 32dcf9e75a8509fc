#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Codex, on the events that cannot block (SessionEnd,
# PreCompact, PostCompact, SubagentStart, SubagentStop) it answers a "portable" go-on reply,
# {"continue":true}, instead of silence. Codex accepts it (the universal fields are in every
# event's reply struct), so nothing shows on the host; but it is output where the contract says
# nothing (CODEX-4: every event but the PreToolUse deny is silent), and a later field of the same
# "portable" reply (a decision, a reason) would make the run Failed. Which releases run these
# hooks at all differs by version profile (docs/hosts/codex-0.171.md "Releases").
# Breaks: CODEX-0012..0015 (silence on SessionEnd and the compaction and subagent events, on
# plain and hostile input)
# Catches: CODEX-0012 CODEX-0013 CODEX-0014 CODEX-0015
adapter="$1"; shift
case " $* " in *" codex "*) ;; *) exec "$adapter" "$@";; esac
event=""; prev=""
for a in "$@"; do [ "$prev" = "--event" ] && event="$a"; prev="$a"; done
case "$event" in
  SessionEnd|PreCompact|PostCompact|SubagentStart|SubagentStop)
    "$adapter" "$@" >/dev/null; rc=$?
    printf '{"continue":true}\n'
    exit "$rc";;
esac
exec "$adapter" "$@"
