#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Codex, stdin that is not a JSON object is rejected
# with exit 1 and a message on stderr. Codex reports every such run as a Failed hook (a warning on
# every call) and a crash must not look like it (contract CODEX-1: the fail-safe reply is silence
# and exit 0).
# Breaks: CODEX-0006, CODEX-0009, CODEX-0014, CODEX-0015 (bad and hostile input on every event,
# the compaction, subagent and SessionEnd events too: silence, exit 0)
# Catches: CODEX-0006 CODEX-0009 CODEX-0014 CODEX-0015
adapter="$1"; shift
case " $* " in *" codex "*) ;; *) exec "$adapter" "$@";; esac
in="$(cat)"
case "$in" in
  "{"*) printf '%s' "$in" | "$adapter" "$@";;
  *) echo "pinta-gemini: hook input is not a JSON object" >&2; exit 1;;
esac
