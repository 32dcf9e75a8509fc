#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Codex, where our adapter says nothing, it answers
# {"continue":true} (an explicit "go on"). On PreToolUse Codex rejects `continue` (the hook run is
# Failed, reported on every call); on every event it is output where silence is the one reply
# Codex never fails (shared/reference/real-hosts.md, "Codex 0.171.0 … hook rules").
# Breaks: CODEX-0001, CODEX-0003..0007, CODEX-0009, and GUARD-0002 under Codex (allow is silence,
# contract CODEX-1)
# Catches: CODEX-0001 CODEX-0003 CODEX-0004 CODEX-0005 CODEX-0006 CODEX-0007 CODEX-0009 GUARD-0002
adapter="$1"; shift
case " $* " in *" codex "*) ;; *) exec "$adapter" "$@";; esac
out="$("$adapter" "$@")"; rc=$?
if [ -n "$out" ]; then printf '%s\n' "$out"; else echo '{"continue":true}'; fi
exit "$rc"
